import type { Device as DeviceAnswer } from '@hasta/contracts/devices';
import type { Device } from './device-repository';

/**
 * A device as the API answers it, with what it did; `forAdmin` adds who paired it by username (the admin's
 * Devices tab names a person's own browser by it).
 */
export function deviceView(
  device: Device,
  use: { paymentCount: number; enrolmentCount: number },
  forAdmin = false,
): DeviceAnswer {
  return {
    id: device.id,
    kind: device.kind,
    name: device.name,
    store_id: device.merchantId,
    store_name: device.storeName,
    kiosk_id: device.kioskId,
    kiosk_name: device.kioskName,
    owner_user_id: device.ownerUserId,
    owner_username: forAdmin ? device.ownerUsername : null,
    created_at: device.createdAt.toISOString(),
    last_seen_at: device.lastSeenAt?.toISOString() ?? null,
    revoked_at: device.revokedAt?.toISOString() ?? null,
    payment_count: use.paymentCount,
    enrolment_count: use.enrolmentCount,
  };
}
