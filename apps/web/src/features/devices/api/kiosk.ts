import { loginResponseSchema, otpSendResponseSchema } from '@hasta/contracts/auth';
import type { Hand, PalmScan } from '@hasta/contracts/palm';
import { palmRegisterResponseSchema, palmRegistrationStateResponseSchema } from '@hasta/contracts/palm';
import type { z } from 'zod';

import { apiRequest } from '../../../lib/api-client';
import { deviceHeaders } from '../../../lib/devices-api';
import type { SignedScan } from '../../../lib/device-session';
import { requestLogout } from '../../../lib/logout-request';

/**
 * The kiosk's calls (issue 22, /kiosk): a person signs in with a code sent to their phone (the login-by-code
 * API every sign-in uses), sees which hands are registered, and registers one with a scan signed by the
 * kiosk's device key; the kiosk then ends their session.
 */

export type KioskSession = z.infer<typeof loginResponseSchema>;
export type HandsState = z.infer<typeof palmRegistrationStateResponseSchema>;
export type KioskEnrolment = z.infer<typeof palmRegisterResponseSchema>;

export const kioskKeys = {
  hands: ['kiosk', 'hands'] as const,
  device: ['kiosk', 'device'] as const,
};

/** POST /api/send-sms-otp (purpose login): a sign-in code to the person's phone. */
export const sendKioskLoginCode = (phone: string) =>
  apiRequest('/api/send-sms-otp', {
    method: 'POST',
    body: { phone, purpose: 'login' },
    schema: otpSendResponseSchema,
  });

/**
 * POST /api/auth/login with the code, as this kiosk (its device token): the session cookie is the person's,
 * on this kiosk, until logout, and the code counts as their palm_enrol step-up (no second code).
 */
export const kioskLogin = (phone: string, otp: string, deviceToken: string) =>
  apiRequest('/api/auth/login', {
    method: 'POST',
    body: { phone, otp },
    headers: deviceHeaders(deviceToken),
    schema: loginResponseSchema,
  });

/** POST /Palm/user/palm-registration-state: the signed-in person's hands. */
export const fetchHands = (signal?: AbortSignal) =>
  apiRequest('/Palm/user/palm-registration-state', {
    method: 'POST',
    body: {},
    schema: palmRegistrationStateResponseSchema,
    ...(signal === undefined ? {} : { signal }),
  });

/**
 * POST /Palm/register for the signed-in person, the scan signed by the kiosk (its device header and the
 * challenge's signature): the kiosk device is recorded on the enrolment.
 */
export const registerOnKiosk = (input: { hand: Hand; scan: PalmScan; signed: SignedScan }) =>
  apiRequest('/Palm/register', {
    method: 'POST',
    headers: input.signed.headers,
    body: { which_hand: input.hand, consent: true, scan: input.scan, ...input.signed.fields },
    schema: palmRegisterResponseSchema,
  });

/** Ends the person's session on the kiosk; a failure (no session, no network) is not the person's concern. */
export const endKioskSession = (): Promise<void> =>
  requestLogout().then(
    () => undefined,
    () => undefined,
  );
