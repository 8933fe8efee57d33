import { z } from 'zod';
import { signedScanFieldsSchema } from './devices';
import { messages } from './messages';
import { rupeesAmountSchema, transactionRecordSchema } from './wallet';

/**
 * Palm scans on the wire (decision 014). The browser finds the palm in the guide box, crops that square and
 * shrinks it to a PALM_ROI_SIZE x PALM_ROI_SIZE grey image; the server extracts the feature, protects it,
 * matches it and forgets the image. Nothing else leaves the device and nothing of the image is kept.
 */
export const PALM_ROI_SIZE = 128;
export const PALM_ROI_BYTES = PALM_ROI_SIZE * PALM_ROI_SIZE;
/** Frames per scan: several agreeing frames make a decision (registration checks them against each other). */
export const PALM_SCAN_FRAMES = 3;
export const PALM_MAX_SCAN_FRAMES = 5;
/** The guide box: a centred square whose side is this fraction of the camera frame's shorter side. */
export const PALM_GUIDE_BOX_FRACTION = 0.6;

export const handSchema = z.enum(['left', 'right']);
export type Hand = z.infer<typeof handSchema>;

/** base64 of 16,384 bytes is 21,848 characters. */
const frameSchema = z
  .string()
  .max(22_000, messages.scanFailed)
  .regex(/^[A-Za-z0-9+/]+={0,2}$/, messages.scanFailed);

export const palmScanSchema = z.object({
  /** Each a PALM_ROI_SIZE² grey image, row-major, base64. */
  frames: z.array(frameSchema).min(1, messages.scanFailed).max(PALM_MAX_SCAN_FRAMES, messages.scanFailed),
  /** 'demo' frames come from the synthetic palm of the scanner's demo mode (refused in production). */
  source: z.enum(['camera', 'demo']),
  /**
   * How the frames were cut: from hand landmarks, upright and with a left hand mirrored into a right hand's
   * orientation; or from the guide box, as the camera saw them, the hand unknown (also when absent).
   */
  roi: z.enum(['landmarks', 'guide-box']).optional(),
});
export type PalmScan = z.infer<typeof palmScanSchema>;

/**
 * Beside every posted scan (issue 22): the paired device's challenge and its signature over it and the
 * frames. Optional here so that who may call is answered first (401/403); the server refuses a scan
 * without them (400 scanChallengeRequired) before it reads a frame.
 */
const signedScanFields = signedScanFieldsSchema.partial().shape;

// POST /Palm/register
export const palmRegisterRequestSchema = z.object({
  user_id: z.uuid(messages.userNotFoundLogin).optional(),
  which_hand: handSchema,
  admin_mode: z.boolean().optional(),
  /** The person read the notice of what is kept and why, and agreed (DPDP Act §6). */
  consent: z.literal(true, messages.palmConsentRequired),
  scan: palmScanSchema,
  ...signedScanFields,
});
export const palmRegisterResponseSchema = z.object({
  success: z.literal(true),
  state: z.literal(true),
  message: z.string(),
  which_hand: handSchema,
  palm_hash: z.string(),
});

// POST /Palm/user/palm-registration-state
export const palmRegistrationStateRequestSchema = z.object({
  user_id: z.uuid(messages.userNotFoundLogin).optional(),
});
export const palmRegistrationStateResponseSchema = z.object({
  left_hand_registered: z.boolean(),
  right_hand_registered: z.boolean(),
});

// POST /Palm/authenticate (the receiver is the caller; the payer is whoever the palm belongs to)
export const palmAuthenticateRequestSchema = z.object({
  amount: rupeesAmountSchema,
  receiverEmail: z.string().trim().max(320).optional(),
  receiverPhone: z.string().trim().max(32).optional(),
  scan: palmScanSchema,
  ...signedScanFields,
});
export const palmPaymentResponseSchema = z.object({
  success: z.literal(true),
  state: z.literal(true),
  authenticated: z.literal(true),
  message: z.string(),
  transaction: transactionRecordSchema,
});

/** Why a palm payment waits for the payer's code. */
export const palmCodeReasonSchema = z.enum(['amount', 'daily', 'hourly', 'new_palm']);
export type PalmCodeReason = z.infer<typeof palmCodeReasonSchema>;

/**
 * 202 from the same calls: a palm payment above the palm limit waits for the payer's code (decision 022).
 * The palm named the payer and the amount is reserved; the code went to the payer's own phone or email.
 */
export const palmConfirmationResponseSchema = z.object({
  success: z.literal(true),
  state: z.literal(false),
  confirmation_required: z.literal(true),
  message: z.string(),
  confirmation: z.object({
    /** The payment's id: confirm or cancel it with this. */
    id: z.string(),
    channel: z.enum(['sms', 'email']),
    /** The payer's phone or email, masked for the receiver ("••••3210", "a•••@e•••"). */
    sent_to: z.string(),
    amount: z.string(),
    expires_at: z.string(),
    /**
     * Why the code is needed (issue 21): above the per-payment palm limit, past the payer's palm-alone
     * limit for the rolling day or hour, or a palm enrolled too recently.
     */
    reason: palmCodeReasonSchema,
  }),
});
export type PalmConfirmation = z.infer<typeof palmConfirmationResponseSchema>['confirmation'];

// POST /Palm/authenticate/confirm, POST /Palm/authenticate/cancel (the receiver of that payment only)
export const palmConfirmRequestSchema = z.object({
  payment_id: z.uuid(messages.palmPaymentNotFound),
  otp: z.string().regex(/^\d{6}$/, messages.invalidOtp),
});
export const palmCancelRequestSchema = z.object({ payment_id: z.uuid(messages.palmPaymentNotFound) });

// POST /api/transaction (a merchant takes a palm payment into the signed-in store)
export const merchantPalmPaymentRequestSchema = z.object({
  amount: rupeesAmountSchema,
  scan: palmScanSchema,
  ...signedScanFields,
});

// Consent (spec §2.11 Consent tab; DPDP Act 2023 §6(4): withdrawing is as easy as giving)
export const consentStatusSchema = z.enum(['active', 'withdrawn', 'none']);
export type ConsentStatus = z.infer<typeof consentStatusSchema>;
export const consentHandSchema = z.object({
  hand: handSchema,
  palm_hash: z.string(),
  registered_at: z.string(),
});
export const consentEventSchema = z.object({
  id: z.string(),
  type: z.enum(['consent.granted', 'consent.withdrawn', 'palm.enrolled', 'palm.erased']),
  hand: handSchema.nullable(),
  created_at: z.string(),
});
export const consentResponseSchema = z.object({
  status: consentStatusSchema,
  hands: z.array(consentHandSchema),
  /** Newest first; each has a receipt at /api/receipts/{id} once the log has sequenced it. */
  events: z.array(consentEventSchema),
});
export type ConsentResponse = z.infer<typeof consentResponseSchema>;
export const consentChangeResponseSchema = z.object({ success: z.literal(true), message: z.string() });

/** What registering a palm keeps and why: shown before the first scan, agreed to with the scan. */
export const PALM_CONSENT_NOTICE =
  'Hasta keeps only a protected, irreversible template made from your palm scan, encrypted, to recognise ' +
  'you when you pay with your palm. The camera picture is never stored. You can withdraw this consent or ' +
  'erase your palm data at any time from the Consent tab of your dashboard.';

// GET /Palm/config: what this server accepts from the scanner.
export const palmConfigResponseSchema = z.object({
  /** Whether the scanner's demo mode (a synthetic palm, no camera) is accepted; never in production. */
  demo_mode: z.boolean(),
  /** Largest palm payment, rupees as a decimal string. */
  max_payment: z.string(),
});
