import {
  deviceListResponseSchema,
  devicePaymentsResponseSchema,
  pairingCodeResponseSchema,
  revokeDeviceResponseSchema,
} from '@hasta/contracts/devices';
import type { Device } from '@hasta/contracts/devices';
import { kioskListResponseSchema } from '@hasta/contracts/kiosks';
import type { Kiosk } from '@hasta/contracts/kiosks';
import type { z } from 'zod';

import { apiRequest } from '../../../lib/api-client';

/** Every device (issue 22) as the admin sees it: kiosks, store terminals and people's own browsers. */

export type { Device, Kiosk };
export type PairingCode = z.infer<typeof pairingCodeResponseSchema>;
export type DevicePayment = z.infer<typeof devicePaymentsResponseSchema>['payments'][number];

export const devicesQueryKey = ['admin', 'devices'] as const;
export const devicePaymentsQueryKey = (id: string) => ['admin', 'devices', id, 'payments'] as const;
export const locatorKiosksQueryKey = ['admin', 'kiosks'] as const;

const withSignal = (signal: AbortSignal | undefined) => (signal === undefined ? {} : { signal });

/** GET /api/devices: every device, with its last use and its payment and enrolment counts. */
export const fetchDevices = async (signal?: AbortSignal): Promise<Device[]> =>
  (await apiRequest('/api/devices', { schema: deviceListResponseSchema, ...withSignal(signal) })).devices;

/** GET /api/devices/:id/payments. */
export const fetchDevicePayments = async (id: string, signal?: AbortSignal): Promise<DevicePayment[]> =>
  (
    await apiRequest(`/api/devices/${encodeURIComponent(id)}/payments`, {
      schema: devicePaymentsResponseSchema,
      ...withSignal(signal),
    })
  ).payments;

/** GET /api/kiosks: the locator's kiosks, one of which a new kiosk device belongs to. */
export const fetchLocatorKiosks = async (signal?: AbortSignal): Promise<Kiosk[]> =>
  (await apiRequest('/api/kiosks', { schema: kioskListResponseSchema, ...withSignal(signal) })).kiosks;

/** POST /api/devices/pairing-codes for a kiosk of the locator. */
export const createKioskCode = (input: { kioskId: string; name: string }) =>
  apiRequest('/api/devices/pairing-codes', {
    method: 'POST',
    body: { kind: 'kiosk', kiosk_id: input.kioskId, name: input.name.trim() },
    schema: pairingCodeResponseSchema,
  });

/** POST /api/devices/:id/revoke: the device stops at once. */
export const revokeDevice = (id: string) =>
  apiRequest(`/api/devices/${encodeURIComponent(id)}/revoke`, {
    method: 'POST',
    body: {},
    schema: revokeDeviceResponseSchema,
  });
