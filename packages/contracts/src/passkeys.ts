import { z } from 'zod';
import { optionalContact, rupeesAmountSchema } from './wallet';
import { stepUpPurposeSchema } from './palm-trust';

/**
 * Passkeys (WebAuthn, issue 23): admins and store owners finish every sign-in with one (a recovery code in
 * its place when the device is lost); anyone may add passkeys and use one instead of the SMS or email code for
 * a transfer, a palm enrolment or a store step-up.
 */

/** How long a ceremony's challenge may be answered. */
export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60_000;
/** Admin actions that move money ask for the passkey again when its last use in the session is older. */
export const PASSKEY_REAUTH_MS = 5 * 60_000;
/** Recovery codes given with the first passkey. */
export const RECOVERY_CODE_COUNT = 10;

/**
 * Where a session stands on its second factor: `passkey_registration` (an admin or store owner without a
 * passkey yet: register one), `passkey` (use it, or a recovery code), or null (nothing pending).
 */
export const secondFactorStepSchema = z.enum(['passkey_registration', 'passkey']).nullable();
export type SecondFactorStep = z.infer<typeof secondFactorStepSchema>;

const base64url = z
  .string()
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]*$/);

/** A browser's answer to navigator.credentials.create, as @simplewebauthn/browser returns it. */
export const registrationResponseSchema = z
  .object({
    id: base64url.max(1024),
    rawId: base64url.max(1024),
    type: z.literal('public-key'),
    response: z
      .object({
        clientDataJSON: base64url,
        attestationObject: base64url,
        transports: z.array(z.string().max(32)).max(10).optional(),
      })
      .loose(),
    clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
    authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  })
  .loose();

/** A browser's answer to navigator.credentials.get, as @simplewebauthn/browser returns it. */
export const authenticationResponseSchema = z
  .object({
    id: base64url.max(1024),
    rawId: base64url.max(1024),
    type: z.literal('public-key'),
    response: z
      .object({
        clientDataJSON: base64url,
        authenticatorData: base64url,
        signature: base64url,
        userHandle: base64url.optional(),
      })
      .loose(),
    clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
    authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  })
  .loose();

/** Options for navigator.credentials.*, passed to @simplewebauthn/browser as they come. */
const ceremonyOptionsSchema = z.record(z.string(), z.unknown());

// POST /api/passkeys/registration/options
export const passkeyRegistrationOptionsResponseSchema = z.object({ options: ceremonyOptionsSchema });

// POST /api/passkeys/registration/verify
export const passkeyRegistrationVerifyRequestSchema = z.object({
  response: registrationResponseSchema,
  name: z.string().trim().min(1).max(100).optional(),
});

export const passkeySchema = z.object({
  id: z.string(),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type Passkey = z.infer<typeof passkeySchema>;

export const passkeyRegistrationVerifyResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  passkey: passkeySchema,
  /** With an admin's or store owner's first passkey only: shown once, never again. */
  recovery_codes: z.array(z.string()).optional(),
});

/**
 * What an assertion approves: finishing a sign-in, an admin's re-confirmation before moving money, a
 * transfer (of `amount` to the receiver, as in POST /api/transfer), or a step-up purpose.
 */
export const passkeyAssertionPurposeSchema = z.union([
  z.enum(['sign_in', 'reauth', 'transfer']),
  stepUpPurposeSchema,
]);
export type PasskeyAssertionPurpose = z.infer<typeof passkeyAssertionPurposeSchema>;

// POST /api/passkeys/authentication/options
export const passkeyAuthenticationOptionsRequestSchema = z
  .object({
    purpose: passkeyAssertionPurposeSchema,
    amount: rupeesAmountSchema.optional(),
    receiverEmail: optionalContact,
    receiverPhone: optionalContact,
  })
  .refine(
    (body) =>
      (body.purpose === 'transfer') ===
      (body.amount !== undefined && (body.receiverEmail !== undefined || body.receiverPhone !== undefined)),
    {
      message: 'A transfer passkey request names the amount and the receiver, and only it does.',
      path: ['amount'],
    },
  );
export const passkeyAuthenticationOptionsResponseSchema = z.object({ options: ceremonyOptionsSchema });

// POST /api/passkeys/authentication/verify
export const passkeyAuthenticationVerifyRequestSchema = z.object({ response: authenticationResponseSchema });
export const passkeyAuthenticationVerifyResponseSchema = z.object({
  success: z.literal(true),
  purpose: passkeyAssertionPurposeSchema,
  /** For a step-up: until when this session may act for its purpose. */
  valid_until: z.string().optional(),
});

// POST /api/passkeys/recovery
export const recoveryCodeRequestSchema = z.object({ code: z.string().trim().min(1).max(64) });
export const recoveryCodeResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  /** Recovery codes not used yet. */
  remaining: z.number().int(),
});

// GET /api/passkeys
export const passkeyListResponseSchema = z.object({
  passkeys: z.array(passkeySchema),
  second_factor: secondFactorStepSchema,
});

// DELETE /api/passkeys/{id}
export const passkeyParamsSchema = z.object({ id: z.uuid() });
export const passkeyRemoveResponseSchema = z.object({ success: z.literal(true), message: z.string() });
