import { z } from 'zod';
import { messages } from './messages';
import { handSchema } from './palm';

/**
 * What keeps a palm from being a bearer credential (issue 21): the owner's fresh step-up before a palm is
 * enrolled or palm pay is unfrozen, admin-assisted enrolment the owner approves, the payer's "Not me" and the
 * disputes it opens, and palm pay's freeze.
 */

/** What a step-up code is for. */
export const stepUpPurposeSchema = z.enum([
  'palm_enrol',
  'palm_unfreeze',
  // A store's owner before adding a bank account or asking for a withdrawal (issue 23).
  'store_bank_account',
  'store_withdrawal',
  // Adding or removing a passkey (issue 23): by code, or by another passkey.
  'passkey_manage',
]);
export type StepUpPurpose = z.infer<typeof stepUpPurposeSchema>;

/** How long a verified step-up lets its owner act for its purpose (enrol a palm, add a bank account...). */
export const STEP_UP_VALID_MS = 5 * 60_000;

// POST /Palm/step-up/send: a code to the signed-in owner's own phone (else email). No address is taken.
export const stepUpSendRequestSchema = z.object({ purpose: stepUpPurposeSchema });
export const stepUpSendResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  channel: z.enum(['sms', 'email']),
  /** The owner's phone or email, mostly hidden ("••••3210", "as•••@example.in"). */
  sent_to: z.string(),
});

// POST /Palm/step-up/verify: the code from that message; the session may then act for STEP_UP_VALID_MS.
export const stepUpVerifyRequestSchema = z.object({
  purpose: stepUpPurposeSchema,
  otp: z.string().regex(/^\d{6}$/, messages.invalidOtp),
});
export const stepUpVerifyResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  /** ISO time until which the step-up counts. */
  valid_until: z.string(),
});

// GET /Palm/step-up/{purpose}: whether this session has a live step-up for it (a page reloaded within the
// 5 minutes need not ask for another code).
export const stepUpStatusResponseSchema = z.object({
  verified: z.boolean(),
  /** ISO time until which the step-up counts; null when there is none. */
  valid_until: z.string().nullable(),
});

/**
 * 202 from POST /Palm/register when an admin registers a palm for another user (spec §2.17, admin_mode):
 * nothing is enrolled yet; the owner approves on their own device with the code sent to them.
 */
/** 'failed': given up after too many wrong codes. */
export const enrolmentRequestStatusSchema = z.enum(['waiting', 'approved', 'declined', 'expired', 'failed']);
export const enrolmentRequestSchema = z.object({
  id: z.uuid(),
  which_hand: handSchema,
  status: enrolmentRequestStatusSchema,
  channel: z.enum(['sms', 'email']),
  /** Where the owner's code went, mostly hidden. */
  sent_to: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
});
export type EnrolmentRequest = z.infer<typeof enrolmentRequestSchema>;
export const palmEnrolmentPendingResponseSchema = z.object({
  success: z.literal(true),
  state: z.literal(false),
  approval_required: z.literal(true),
  message: z.string(),
  request: enrolmentRequestSchema,
});

// GET /Palm/enrolment-requests/{id}: the admin who started it, or its owner.
// GET /Palm/enrolment-requests: the signed-in owner's requests still waiting.
export const enrolmentRequestListResponseSchema = z.object({ requests: z.array(enrolmentRequestSchema) });
// POST /Palm/enrolment-requests/{id}/approve (the owner, with the code), .../decline (the owner).
export const enrolmentApproveRequestSchema = z.object({
  otp: z.string().regex(/^\d{6}$/, messages.invalidOtp),
});

// GET /api/palm/status, POST /api/palm/unfreeze (after a palm_unfreeze step-up)
export const palmPayStatusResponseSchema = z.object({
  frozen: z.boolean(),
  frozen_at: z.string().nullable(),
});

/** A payment reported as "Not me": open until an admin refunds or rejects it. */
export const disputeStatusSchema = z.enum(['open', 'refunded', 'rejected']);
export const disputeSchema = z.object({
  id: z.uuid(),
  status: disputeStatusSchema,
  opened_via: z.enum(['link', 'history']),
  transaction: z.object({
    id: z.string(),
    amount: z.string(),
    amount_paise: z.string(),
    created_at: z.string(),
  }),
  /** The payee's display name (a store's name, or a person's masked name). */
  payee: z.string(),
  /** Where the scan was taken: the receiving session's device, as far as it is known. */
  device: z.string().nullable(),
  /** How close the scan was to the payer's template (percent, one decimal). */
  similarity: z.number().nullable(),
  /** The admin's reason for rejecting. */
  reason: z.string().nullable(),
  /** Where a refund came from: the payee's account, or the losses account when the payee could not cover it. */
  refunded_from: z.enum(['payee', 'losses']).nullable(),
  created_at: z.string(),
  resolved_at: z.string().nullable(),
});
export type Dispute = z.infer<typeof disputeSchema>;
/** The admin list also names the payer (full contact: admins already see it in the Users tab). */
export const adminDisputeSchema = disputeSchema.extend({
  payer_email: z.string().nullable(),
  payer_phone: z.string().nullable(),
});
export type AdminDispute = z.infer<typeof adminDisputeSchema>;

// POST /api/palm/not-me/preview {token} (no login: the token is the authority): what is being reported.
export const notMeTokenRequestSchema = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, messages.notMeLinkInvalid),
});
export const notMePreviewResponseSchema = z.object({
  amount: z.string(),
  payee: z.string(),
  created_at: z.string(),
});
// POST /api/palm/not-me {token}: freezes palm pay and opens a dispute; the token is spent.
export const notMeResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  dispute: disputeSchema,
});
// POST /api/palm/disputes {transaction_id}: "Not me" from the payer's History (signed in).
export const openDisputeRequestSchema = z.object({ transaction_id: z.uuid(messages.transactionNotFound) });
// GET /api/palm/disputes: the signed-in payer's disputes, newest first.
export const disputeListResponseSchema = z.object({ disputes: z.array(disputeSchema) });
// GET /api/disputes (admin): every dispute, open first.
export const adminDisputeListResponseSchema = z.object({ disputes: z.array(adminDisputeSchema) });
// POST /api/disputes/{id} (admin): refund, or reject with a reason.
export const resolveDisputeRequestSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('refund') }),
  z.object({
    action: z.literal('reject'),
    reason: z.string().trim().min(1, messages.disputeReasonRequired).max(500, messages.disputeReasonRequired),
  }),
]);
export const resolveDisputeResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  dispute: adminDisputeSchema,
});
