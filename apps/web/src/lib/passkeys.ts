import { messages } from '@hasta/contracts/messages';
import {
  passkeyAuthenticationOptionsResponseSchema,
  passkeyAuthenticationVerifyResponseSchema,
  passkeyListResponseSchema,
  passkeyRegistrationOptionsResponseSchema,
  passkeyRegistrationVerifyResponseSchema,
  passkeyRemoveResponseSchema,
  recoveryCodeResponseSchema,
} from '@hasta/contracts/passkeys';
import type { PasskeyAssertionPurpose } from '@hasta/contracts/passkeys';
import i18n from 'i18next';
import { toast } from 'react-hot-toast';
import type { z } from 'zod';

import { ApiError, apiRequest } from './api-client';

/**
 * Passkeys (issue 23): the ceremonies through @simplewebauthn/browser (loaded only when a ceremony runs), the
 * recovery code at sign-in, and the owner's list in Settings.
 */
export const PASSKEYS_ENDPOINT = '/api/passkeys';
export const passkeyKeys = { list: ['passkeys'] as const };

export type PasskeyList = z.infer<typeof passkeyListResponseSchema>;
export type RegisteredPasskey = z.infer<typeof passkeyRegistrationVerifyResponseSchema>;

/** The transfer a passkey approves, as POST /api/transfer will name it. */
export interface TransferToApprove {
  amount: number;
  receiverEmail?: string;
  receiverPhone?: string;
}

/** The browser or the person declined or could not use a passkey (not a server refusal). */
export class PasskeyCancelled extends Error {}

const browser = () => import('@simplewebauthn/browser');

export function listPasskeys(): Promise<PasskeyList> {
  return apiRequest(PASSKEYS_ENDPOINT, { method: 'GET', schema: passkeyListResponseSchema });
}

/** Creates a passkey on this device and stores it on the account (the first one answers recovery codes). */
export async function registerPasskey(name?: string): Promise<RegisteredPasskey> {
  const { options } = await apiRequest(`${PASSKEYS_ENDPOINT}/registration/options`, {
    method: 'POST',
    body: {},
    schema: passkeyRegistrationOptionsResponseSchema,
  });
  const { startRegistration } = await browser();
  let response: unknown;
  try {
    response = await startRegistration({ optionsJSON: options as never });
  } catch (cause) {
    throw new PasskeyCancelled('passkey registration did not complete', { cause });
  }
  return apiRequest(`${PASSKEYS_ENDPOINT}/registration/verify`, {
    method: 'POST',
    body: { response, ...(name === undefined ? {} : { name }) },
    schema: passkeyRegistrationVerifyResponseSchema,
  });
}

/**
 * A passkey check for one purpose: finish a sign-in, re-confirm before moving money, approve one transfer
 * (its amount and receiver), or a step-up purpose. Answers until when a step-up counts.
 */
export async function confirmWithPasskey(
  purpose: PasskeyAssertionPurpose,
  transfer?: TransferToApprove,
): Promise<{ validUntil: Date | null }> {
  const { options } = await apiRequest(`${PASSKEYS_ENDPOINT}/authentication/options`, {
    method: 'POST',
    body: { purpose, ...transfer },
    schema: passkeyAuthenticationOptionsResponseSchema,
  });
  const { startAuthentication } = await browser();
  let response: unknown;
  try {
    response = await startAuthentication({ optionsJSON: options as never });
  } catch (cause) {
    throw new PasskeyCancelled('passkey check did not complete', { cause });
  }
  const verified = await apiRequest(`${PASSKEYS_ENDPOINT}/authentication/verify`, {
    method: 'POST',
    body: { response },
    schema: passkeyAuthenticationVerifyResponseSchema,
  });
  return { validUntil: verified.valid_until === undefined ? null : new Date(verified.valid_until) };
}

export function signInWithRecoveryCode(code: string): Promise<z.infer<typeof recoveryCodeResponseSchema>> {
  return apiRequest(`${PASSKEYS_ENDPOINT}/recovery`, {
    method: 'POST',
    body: { code },
    schema: recoveryCodeResponseSchema,
  });
}

export function removePasskey(id: string): Promise<z.infer<typeof passkeyRemoveResponseSchema>> {
  return apiRequest(`${PASSKEYS_ENDPOINT}/${encodeURIComponent(id)}`, {
    method: 'DELETE',
    schema: passkeyRemoveResponseSchema,
  });
}

/** Whether a refusal asks for the admin's passkey again (403 passkeyReauthRequired). */
export function needsPasskeyReauth(error: unknown): boolean {
  return error instanceof ApiError && error.message === messages.passkeyReauthRequired;
}

/**
 * Runs an admin action that moves money; when the server asks for the passkey again (its last use in this
 * session is over 5 minutes old), runs the ceremony and tries once more.
 */
export async function withPasskeyReauth<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (!needsPasskeyReauth(error)) throw error;
    // The admin is told why the browser asks for the passkey now, then the action is tried once more.
    toast(i18n.t('passkeys.reauthPrompt'));
    await confirmWithPasskey('reauth');
    return action();
  }
}
