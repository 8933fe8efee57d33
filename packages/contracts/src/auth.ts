import { z } from 'zod';
import { OTP_LENGTH, PASSWORD_MIN_LENGTH, REWARD_TIERS, USERNAME_MIN_LENGTH } from './constants';
import { normalizeEmail, normalizePhone } from './identity';
import { messages } from './messages';
import { optionalContact, rupeesAmountSchema } from './wallet';

/** What a one-time code is for; a code made for one purpose is refused for any other. */
export const otpPurposeSchema = z.enum(['login', 'registration', 'transfer', 'password_reset']);
export type OtpPurpose = z.infer<typeof otpPurposeSchema>;

export const emailSchema = z
  .string({ error: messages.invalidEmail })
  .transform(
    (value, ctx) =>
      normalizeEmail(value) ?? (ctx.addIssue({ code: 'custom', message: messages.invalidEmail }), z.NEVER),
  );

export const phoneSchema = z
  .string({ error: messages.invalidPhone })
  .transform(
    (value, ctx) =>
      normalizePhone(value) ?? (ctx.addIssue({ code: 'custom', message: messages.invalidPhone }), z.NEVER),
  );

export const otpCodeSchema = z
  .string({ error: messages.enterSixDigitCode })
  .regex(new RegExp(`^\\d{${OTP_LENGTH}}$`), messages.enterSixDigitCode);

export const passwordSchema = z
  .string({ error: messages.passwordAndConfirmRequired })
  .min(PASSWORD_MIN_LENGTH, messages.passwordMinLength)
  .max(200, messages.passwordTooLong);

const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value === '' ? undefined : value));

export const roleSchema = z.enum(['user', 'merchant', 'admin']);
export type Role = z.infer<typeof roleSchema>;

/** The user as the browser keeps it (spec §3 "user"): never a secret. */
export const publicUserSchema = z.object({
  id: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  username: z.string(),
  role: roleSchema,
  is_admin: z.boolean(),
  must_change_password: z.boolean(),
  /**
   * With must_change_password: whether this is the account's first sign-in with the temporary password it was
   * created with (a new store owner's welcome), rather than one an admin reset. Optional: a user record kept
   * on a device from before it existed still parses.
   */
  first_sign_in: z.boolean().optional(),
});
export type PublicUser = z.infer<typeof publicUserSchema>;

/** Sign-in answers: the session cookie is set too; `token` is for devices sending `Authorization: Bearer`. */
export const sessionAnswerSchema = z.object({
  token: z.string(),
  user: publicUserSchema,
  /**
   * Issue 23: an admin's or store owner's session is only pending after the password or code; this says the
   * passkey step that finishes it (`passkey_registration` at the first sign-in, else `passkey`), or null.
   */
  second_factor: z.enum(['passkey_registration', 'passkey']).nullable().optional(),
});
export type SessionAnswer = z.infer<typeof sessionAnswerSchema>;

// POST /api/auth/signup
export const signupRequestSchema = z
  .object({
    username: z
      .string({ error: messages.registerIdentityRequired })
      .trim()
      .min(1, messages.registerIdentityRequired)
      .min(USERNAME_MIN_LENGTH, messages.usernameMinLength)
      .max(100),
    password: passwordSchema,
    email: optionalText.pipe(emailSchema.optional()),
    phone: optionalText.pipe(phoneSchema.optional()),
    /** From the verify answer, for callers without cookies. */
    verification_token: z.string().max(200).optional(),
  })
  .refine((body) => body.email !== undefined || body.phone !== undefined, {
    message: messages.registerIdentityRequired,
    path: ['email'],
  });
export const signupResponseSchema = sessionAnswerSchema.extend({ message: z.string() });

// POST /api/auth/login
export const loginRequestSchema = z
  .object({
    email: optionalText.pipe(emailSchema.optional()),
    phone: optionalText.pipe(phoneSchema.optional()),
    otp: optionalText.pipe(otpCodeSchema.optional()),
    password: z.string().min(1).max(200).optional(),
  })
  .refine((body) => (body.email === undefined) !== (body.phone === undefined), {
    message: messages.registerInvalidContact,
    path: ['email'],
  })
  .refine((body) => (body.otp === undefined) !== (body.password === undefined), {
    message: messages.loginRequestFailed,
    path: ['otp'],
  });
export const loginResponseSchema = sessionAnswerSchema;

// GET /api/auth/session
export const currentSessionResponseSchema = z.object({
  user: publicUserSchema,
  second_factor: z.enum(['passkey_registration', 'passkey']).nullable().optional(),
});

// POST /api/auth/logout
export const successResponseSchema = z.object({ success: z.literal(true), message: z.string() });

// POST /api/email-otp/send, POST /api/send-sms-otp
// Optional, for a transfer code (issue 23, codes bound to what they approve): the amount and the receiver
// (as in POST /api/transfer) the code approves, named in its message; a code asked for with them pays only a
// transfer of that amount to that receiver. Both or neither.
const transferBinding = {
  amount: rupeesAmountSchema.optional(),
  receiverEmail: optionalContact,
  receiverPhone: optionalContact,
};
const bindsBoth = (body: {
  amount?: number | undefined;
  receiverEmail?: string | undefined;
  receiverPhone?: string | undefined;
}) => (body.amount === undefined) === (body.receiverEmail === undefined && body.receiverPhone === undefined);
const bindingMessage = { message: messages.invalidRequest, path: ['amount'] };
export const emailOtpSendRequestSchema = z
  .object({ email: emailSchema, purpose: otpPurposeSchema.optional(), ...transferBinding })
  .refine(bindsBoth, bindingMessage);
export const smsOtpSendRequestSchema = z
  .object({ phone: phoneSchema, purpose: otpPurposeSchema.optional(), ...transferBinding })
  .refine(bindsBoth, bindingMessage);
export const otpSendResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  resend_after_s: z.number().int(),
});

// POST /api/email-otp/verify, POST /api/verify-sms-otp
const verifySecret = {
  otp: optionalText.pipe(otpCodeSchema.optional()),
  /** The token of a registration link, instead of the typed code. */
  token: z.string().max(200).optional(),
  purpose: otpPurposeSchema.optional(),
};
export const emailOtpVerifyRequestSchema = z
  .object({ email: emailSchema, ...verifySecret })
  .refine((body) => body.otp !== undefined || body.token !== undefined, {
    message: messages.invalidOtp,
    path: ['otp'],
  });
export const smsOtpVerifyRequestSchema = z
  .object({ phone: phoneSchema, ...verifySecret })
  .refine((body) => body.otp !== undefined || body.token !== undefined, {
    message: messages.invalidOtp,
    path: ['otp'],
  });
export const otpVerifyResponseSchema = z.object({
  success: z.literal(true),
  purpose: otpPurposeSchema,
  /** Registration and password reset: proof of the verified contact, also kept in an httpOnly cookie. */
  verification_token: z.string().optional(),
  /** A login code verified here signs the caller in. */
  token: z.string().optional(),
  user: publicUserSchema.optional(),
});

// POST /api/auth/password-reset (forgot password, after a password_reset code)
export const passwordResetRequestSchema = z
  .object({
    email: optionalText.pipe(emailSchema.optional()),
    phone: optionalText.pipe(phoneSchema.optional()),
    otp: otpCodeSchema,
    newPassword: passwordSchema,
  })
  .refine((body) => (body.email === undefined) !== (body.phone === undefined), {
    message: messages.registerInvalidContact,
    path: ['phone'],
  });

// POST /api/auth/change-password
export const changePasswordRequestSchema = z.object({
  userId: z.string().optional(),
  originalPassword: z
    .string({ error: messages.allFieldsRequired })
    .min(1, messages.allFieldsRequired)
    .max(200),
  newPassword: z
    .string({ error: messages.allFieldsRequired })
    .min(1, messages.allFieldsRequired)
    .min(PASSWORD_MIN_LENGTH, messages.newPasswordMinLength)
    .max(200, messages.passwordTooLong),
});
export const changePasswordResponseSchema = sessionAnswerSchema.extend({
  success: z.literal(true),
  message: z.string(),
});

// POST /api/auth/reset-password (admin)
export const adminResetPasswordRequestSchema = z.object({ userId: z.uuid(messages.userNotFound) });
export const adminResetPasswordResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  /** Shown once to the admin; the user must replace it at next login. */
  temporary_password: z.string(),
});

// GET /api/auth/users (admin): the user directory, searched and paged on the server.
export const ADMIN_USERS_PAGE_SIZE_DEFAULT = 25;
export const ADMIN_USERS_PAGE_SIZE_MAX = 500;
export const ADMIN_USERS_SEARCH_MAX_CHARS = 100;
/** From this length a search matches anywhere (trigram index); shorter ones match the start. */
export const ADMIN_USERS_SUBSTRING_MIN_CHARS = 3;
export const ADMIN_USERS_LOOKUP_MAX_IDS = 100;
/** Counting stops here, so a count never reads more than this many rows. */
export const ADMIN_USERS_COUNT_CAP = 10_000;

const hasControlCharacter = (value: string): boolean =>
  Array.from(value).some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f);
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const adminUsersQuerySchema = z.object({
  /**
   * Case-insensitive. 1-2 characters: names and emails starting with it. 3 or more: anywhere in the name,
   * email or phone (a phone typed with spaces or dashes is matched without them). Blank: everyone.
   */
  q: z
    .string({ error: messages.userSearchInvalid })
    .max(ADMIN_USERS_SEARCH_MAX_CHARS, messages.userSearchTooLong)
    .refine((value) => !hasControlCharacter(value), messages.userSearchInvalid)
    .optional(),
  limit: z
    .string({ error: messages.pageSizeInvalid })
    .regex(/^[0-9]{1,4}$/, messages.pageSizeInvalid)
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(1, messages.pageSizeInvalid)
        .max(ADMIN_USERS_PAGE_SIZE_MAX, messages.pageSizeInvalid),
    )
    .optional(),
  /** The `next_cursor` of the previous page. */
  cursor: z
    .string({ error: messages.pageCursorInvalid })
    .regex(/^[A-Za-z0-9_-]{1,200}$/, messages.pageCursorInvalid)
    .optional(),
  /** Comma-separated user ids: only these users (names for ids shown elsewhere). */
  ids: z
    .string({ error: messages.userIdsInvalid })
    .max(ADMIN_USERS_LOOKUP_MAX_IDS * 37, messages.userIdsInvalid)
    .transform((value) => value.split(','))
    .refine(
      (ids) => ids.length <= ADMIN_USERS_LOOKUP_MAX_IDS && ids.every((id) => UUID_PATTERN.test(id)),
      messages.userIdsInvalid,
    )
    .optional(),
});
export type AdminUsersQuery = z.input<typeof adminUsersQuerySchema>;

/**
 * What the admin user row's `left_palm_hash` / `right_palm_hash` hold for a registered hand (spec §3: "Hashes
 * only indicate registered or not"). One fixed marker, never a hash of the template: the `palm_hash` a person
 * sees is SHA-256 of their protected template (decision 014), and the same value in the admin's list (and its
 * CSV exports) would link a person's palm across the places it appears; a per-template value would still
 * tell a re-enrolment apart. The marker carries exactly the one bit the spec gives the admin.
 */
export const PALM_REGISTERED_MARKER = 'registered';

/**
 * A row of the admin's user list (spec §3 "Admin user row"). The palm hashes never leave the server: the
 * spec's `left_palm_hash` / `right_palm_hash` are PALM_REGISTERED_MARKER or null, with the same fact as booleans.
 */
export const adminUserRowSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  role: roleSchema,
  /** Rupees as a decimal string, from the ledger (posted). */
  balance: z.string(),
  balance_paise: z.string(),
  left_palm_registered: z.boolean(),
  right_palm_registered: z.boolean(),
  /** Spec §3's name: PALM_REGISTERED_MARKER when the left hand is registered, else null. */
  left_palm_hash: z.literal(PALM_REGISTERED_MARKER).nullable(),
  /** Spec §3's name: PALM_REGISTERED_MARKER when the right hand is registered, else null. */
  right_palm_hash: z.literal(PALM_REGISTERED_MARKER).nullable(),
  created_at: z.string(),
  /** Rewards (issue 24): the points balance and the tier from the last 12 months' palm and store payments. */
  points: z.number().int().optional(),
  tier: z.enum(REWARD_TIERS).nullable().optional(),
});
export type AdminUserRow = z.infer<typeof adminUserRowSchema>;
export const adminUsersResponseSchema = z.object({
  users: z.array(adminUserRowSchema),
  /** Users matching the search, counted up to ADMIN_USERS_COUNT_CAP. */
  total: z.number().int(),
  /** False when there are more than `total` (the count stopped at the cap). */
  total_exact: z.boolean(),
  /** Pass as `cursor` for the next page; null on the last page. */
  next_cursor: z.string().nullable(),
});
export type AdminUsersPage = z.infer<typeof adminUsersResponseSchema>;

// GET /api/sessions: the caller's own live sessions (issue 23 item 2).
export const sessionSummarySchema = z.object({
  id: z.uuid(),
  created_at: z.string(),
  last_seen_at: z.string(),
  user_agent: z.string().nullable(),
  /** Whether this is the session the request came with. */
  current: z.boolean(),
});
export type SessionSummary = z.infer<typeof sessionSummarySchema>;
export const sessionsListResponseSchema = z.object({ sessions: z.array(sessionSummarySchema) });

// POST /api/sessions/{id}/revoke
export const sessionParamsSchema = z.object({ id: z.uuid() });

// POST /api/sessions/revoke-others, POST /api/sessions/{id}/revoke
export const sessionsRevokedResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  /** How many sessions ended. */
  revoked: z.number().int().nonnegative(),
});
