import { successResponseSchema } from '@hasta/contracts/auth';
import {
  palmConfirmationResponseSchema,
  palmPaymentResponseSchema,
  palmRegisterResponseSchema,
  palmRegistrationStateResponseSchema,
} from '@hasta/contracts/palm';
import type { Hand, PalmScan } from '@hasta/contracts/palm';
import { palmEnrolmentPendingResponseSchema } from '@hasta/contracts/palm-trust';
import { z } from 'zod';

import { apiRequest } from '../../../lib/api-client';
import type { SignedScan } from '../../../lib/device-session';

export type PalmRegistrationState = z.infer<typeof palmRegistrationStateResponseSchema>;
export type PalmRegisterAnswer = z.infer<typeof palmRegisterResponseSchema>;
/** An admin's registration for another user: it waits for the owner's approval (issue 21). */
export type PalmEnrolmentPending = z.infer<typeof palmEnrolmentPendingResponseSchema>;
const palmRegisterOrPendingSchema = z.union([palmRegisterResponseSchema, palmEnrolmentPendingResponseSchema]);
export type PalmPaymentAnswer = z.infer<typeof palmPaymentResponseSchema>;
export type PalmConfirmationAnswer = z.infer<typeof palmConfirmationResponseSchema>;
/** A palm payment call answers the payment, or (above the palm limit) that it waits for the payer's code. */
const palmPaymentOrConfirmationSchema = z.union([palmPaymentResponseSchema, palmConfirmationResponseSchema]);
export type PalmPaymentOrConfirmation = PalmPaymentAnswer | PalmConfirmationAnswer;

export const palmKeys = {
  all: ['palm'] as const,
  /** `null`: the signed-in user; an id: that user (admin mode). */
  registrationState: (userId: string | null) => ['palm', 'registration-state', userId] as const,
};

/** POST /Palm/user/palm-registration-state: which hands of the user (the caller without `userId`) have a palm. */
export function fetchRegistrationState(
  userId: string | null,
  signal?: AbortSignal,
): Promise<PalmRegistrationState> {
  return apiRequest('/Palm/user/palm-registration-state', {
    method: 'POST',
    body: userId === null ? {} : { user_id: userId },
    schema: palmRegistrationStateResponseSchema,
    ...(signal === undefined ? {} : { signal }),
  });
}

export interface PalmRegistration {
  /** Another user's id in admin mode; `null` registers the caller. */
  userId: string | null;
  hand: Hand;
  scan: PalmScan;
  /** This browser's device header and its signature of the scan (issue 22). */
  signed: SignedScan;
}

/**
 * POST /Palm/register: the person agreed to PALM_CONSENT_NOTICE before this scan (`consent: true`). One's own
 * palm needs this session's step-up first; an admin's registration for another user answers a request that
 * waits for the owner.
 */
export function registerPalm({
  userId,
  hand,
  scan,
  signed,
}: PalmRegistration): Promise<PalmRegisterAnswer | PalmEnrolmentPending> {
  return apiRequest('/Palm/register', {
    method: 'POST',
    headers: signed.headers,
    body: {
      ...(userId === null ? {} : { user_id: userId, admin_mode: true }),
      which_hand: hand,
      consent: true,
      scan,
      ...signed.fields,
    },
    schema: palmRegisterOrPendingSchema,
  });
}

/**
 * POST /Palm/authenticate: the signed-in receiver takes `amountText` rupees from whoever the palm belongs to.
 * One Idempotency-Key per scan, so a retried request cannot pay twice.
 */
export function authenticatePalmPayment(request: {
  amountText: string;
  receiverEmail: string | null;
  receiverPhone: string | null;
  scan: PalmScan;
  signed: SignedScan;
}): Promise<PalmPaymentOrConfirmation> {
  return apiRequest('/Palm/authenticate', {
    method: 'POST',
    headers: { ...request.signed.headers, 'Idempotency-Key': crypto.randomUUID() },
    body: {
      amount: Number(request.amountText),
      ...(request.receiverEmail === null ? {} : { receiverEmail: request.receiverEmail }),
      ...(request.receiverPhone === null ? {} : { receiverPhone: request.receiverPhone }),
      scan: request.scan,
      ...request.signed.fields,
    },
    schema: palmPaymentOrConfirmationSchema,
  });
}

/**
 * POST /api/transaction: a terminal of the store (the owner's browser on Accept Palm, or a paired /terminal)
 * takes `amountText` rupees into the store from the palm's owner. A retry of the same payment sends the same
 * `idempotencyKey` (a new one per payment otherwise).
 */
export function takeStorePalmPayment(request: {
  amountText: string;
  scan: PalmScan;
  signed: SignedScan;
  idempotencyKey?: string;
}): Promise<PalmPaymentOrConfirmation> {
  return apiRequest('/api/transaction', {
    method: 'POST',
    headers: { ...request.signed.headers, 'Idempotency-Key': request.idempotencyKey ?? crypto.randomUUID() },
    body: { amount: Number(request.amountText), scan: request.scan, ...request.signed.fields },
    schema: palmPaymentOrConfirmationSchema,
  });
}

/** POST /Palm/authenticate/confirm: the payer's code posts a palm payment that waited for it. */
export function confirmPalmPayment(
  paymentId: string,
  otp: string,
  /** A paired terminal's device header (issue 22), when the terminal confirms a payment it took. */
  headers: Record<string, string> = {},
): Promise<PalmPaymentAnswer> {
  return apiRequest('/Palm/authenticate/confirm', {
    method: 'POST',
    headers,
    body: { payment_id: paymentId, otp },
    schema: palmPaymentResponseSchema,
  });
}

/** POST /Palm/authenticate/cancel: nothing is paid. */
export function cancelPalmPayment(
  paymentId: string,
  headers: Record<string, string> = {},
): Promise<z.infer<typeof successResponseSchema>> {
  return apiRequest('/Palm/authenticate/cancel', {
    method: 'POST',
    headers,
    body: { payment_id: paymentId },
    schema: successResponseSchema,
  });
}
