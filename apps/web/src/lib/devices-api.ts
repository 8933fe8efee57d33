import {
  DEVICE_HEADER,
  deviceMeResponseSchema,
  devicePaymentsResponseSchema,
  pairedDeviceResponseSchema,
  scanChallengeResponseSchema,
} from '@hasta/contracts/devices';
import type { DevicePublicKey, ScanChallenge, ScanPurpose } from '@hasta/contracts/devices';
import type { z } from 'zod';

import { apiRequest } from './api-client';

/**
 * The device routes of issue 22 (the contract: packages/contracts/src/devices.ts): pairing with a code, a
 * signed-in person's own browser becoming a device, the device asking who it is and for its payments, and
 * the single-use scan challenge. A device's requests carry its token in the DEVICE_HEADER.
 */
export type PairAnswer = z.infer<typeof pairedDeviceResponseSchema>;
export type DeviceMe = z.infer<typeof deviceMeResponseSchema>;
export type DevicePayments = z.infer<typeof devicePaymentsResponseSchema>;
export type { ScanChallenge, ScanPurpose };

export const deviceHeaders = (token: string): Record<string, string> => ({ [DEVICE_HEADER]: token });

/** POST /api/devices/pair: the code is the authority (no person's session needed). */
export function pairDevice(request: { code: string; publicKey: DevicePublicKey }): Promise<PairAnswer> {
  return apiRequest('/api/devices/pair', {
    method: 'POST',
    body: { code: request.code, public_key: request.publicKey },
    schema: pairedDeviceResponseSchema,
  });
}

/**
 * POST /api/devices/this-browser: the signed-in person's browser (with a live 'palm_enrol' step-up) becomes
 * their personal device, or the store owner's browser a terminal of their store (the Accept Palm tab).
 */
export function registerThisBrowser(request: {
  kind: 'personal' | 'terminal';
  publicKey: DevicePublicKey;
  name: string;
}): Promise<PairAnswer> {
  return apiRequest('/api/devices/this-browser', {
    method: 'POST',
    body: { kind: request.kind, public_key: request.publicKey, name: request.name },
    schema: pairedDeviceResponseSchema,
  });
}

/** GET /api/devices/me: the device its token names (refused once it is revoked). */
export function fetchThisDevice(token: string, signal?: AbortSignal): Promise<DeviceMe> {
  return apiRequest('/api/devices/me', {
    headers: deviceHeaders(token),
    schema: deviceMeResponseSchema,
    ...(signal === undefined ? {} : { signal }),
  });
}

/** GET /api/devices/me/payments: this terminal's last payments. */
export function fetchTerminalPayments(token: string, signal?: AbortSignal): Promise<DevicePayments> {
  return apiRequest('/api/devices/me/payments', {
    headers: deviceHeaders(token),
    schema: devicePaymentsResponseSchema,
    ...(signal === undefined ? {} : { signal }),
  });
}

/**
 * POST /Palm/challenge: a nonce for one scan (60 s, used once), bound to this device and the purpose, and for
 * a payment to the amount (rupees, as the payment will carry it) and the receiver the server names.
 */
export function requestScanChallenge(
  token: string,
  request: { purpose: ScanPurpose; amount?: number },
): Promise<ScanChallenge> {
  return apiRequest('/Palm/challenge', {
    method: 'POST',
    headers: deviceHeaders(token),
    body: request,
    schema: scanChallengeResponseSchema,
  });
}
