import { z } from 'zod';

import { messages } from './messages';

/**
 * The text inside a Hasta payment QR code: a versioned URI modelled on UPI's deep link
 * (`upi://pay?pa=…&pn=…&am=…`).
 *
 *   hasta://pay?v=1&pa=<payee>&pn=<payee name>[&am=<rupees>][&qr=<code id>]
 *
 * - `v`  version, `1`. A reader refuses a version it does not know.
 * - `pa` payee address: `store-<merchant id>` (a store) or `user-<user id>` (a person), ids as lowercase uuids.
 * - `pn` payee name as printed, 1 to 60 characters. Display only: the server answers with the current name.
 * - `am` optional fixed amount in rupees, written with 2 decimals (`250.00`); read with 0 to 2 decimals; above
 *   0. Without it the payer types the amount.
 * - `qr` optional id of one printed store code (16 to 64 characters of A-Z a-z 0-9 _ -), so its scans can be
 *   counted. Only on a store's code.
 *
 * Values are percent-encoded (encodeURIComponent); a `+` reads as a space, as in form encoding. The scheme and
 * host are case-insensitive. Parameters a reader does not know are ignored (a later version may add some); a
 * repeated parameter is refused, and so is a text longer than 1024 characters.
 */

export const PAYMENT_URI_VERSION = '1';
export const PAYMENT_URI_MAX_LENGTH = 1024;
export const PAYEE_NAME_MAX_CHARS = 60;
const PREFIX = 'hasta://pay?';
const MAX_PARAMETERS = 32;
/** Nine rupee digits: far above any wallet's limit, far inside a bigint. */
const AMOUNT_PATTERN = /^(\d{1,9})(?:\.(\d{1,2}))?$/;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PAYEE_PATTERN = /^(store|user)-([0-9a-f-]{36})$/;
export const QR_ID_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;
const MAX_AMOUNT_PAISE = 99_999_999_999n;

export const payeeKindSchema = z.enum(['store', 'user']);
export type PayeeKind = z.infer<typeof payeeKindSchema>;

/** What a payment QR asks for. */
export const paymentRequestSchema = z
  .object({
    payee: z.object({ kind: payeeKindSchema, id: z.string().regex(UUID_PATTERN) }),
    payee_name: z
      .string()
      .trim()
      .min(1)
      .refine((name) => Array.from(name).length <= PAYEE_NAME_MAX_CHARS),
    amount_paise: z.bigint().min(1n).max(MAX_AMOUNT_PAISE).optional(),
    qr: z.string().regex(QR_ID_PATTERN).optional(),
  })
  .refine((request) => request.qr === undefined || request.payee.kind === 'store', {
    message: 'Only a store code carries a qr id.',
    path: ['qr'],
  });
export type PaymentRequest = z.infer<typeof paymentRequestSchema>;

/** A name cut to what a code carries (whole characters, never half a surrogate pair). */
export function payeeNameForUri(name: string): string {
  const trimmed = name.trim();
  const chars = Array.from(trimmed);
  return chars.length <= PAYEE_NAME_MAX_CHARS ? trimmed : chars.slice(0, PAYEE_NAME_MAX_CHARS).join('');
}

function rupeesText(paise: bigint): string {
  return `${paise / 100n}.${(paise % 100n).toString().padStart(2, '0')}`;
}

/** The URI for a request; throws on a request that is not valid (a programming error, not input). */
export function formatPaymentUri(input: PaymentRequest): string {
  const request = paymentRequestSchema.parse(input);
  const parts: [string, string][] = [
    ['v', PAYMENT_URI_VERSION],
    ['pa', `${request.payee.kind}-${request.payee.id}`],
    ['pn', request.payee_name],
  ];
  if (request.amount_paise !== undefined) parts.push(['am', rupeesText(request.amount_paise)]);
  if (request.qr !== undefined) parts.push(['qr', request.qr]);
  const uri = PREFIX + parts.map(([key, value]) => `${key}=${encodeURIComponent(value)}`).join('&');
  if (uri.length > PAYMENT_URI_MAX_LENGTH) throw new RangeError('payment URI too long');
  return uri;
}

function decode(value: string): string | null {
  try {
    return decodeURIComponent(value.replaceAll('+', ' '));
  } catch {
    return null;
  }
}

/** Reads a scanned text; anything that is not a valid version-1 payment URI is null. */
export function parsePaymentUri(text: string): PaymentRequest | null {
  if (text.length > PAYMENT_URI_MAX_LENGTH) return null;
  const trimmed = text.trim();
  if (trimmed.slice(0, PREFIX.length).toLowerCase() !== PREFIX) return null;
  const query = trimmed.slice(PREFIX.length);
  if (query.includes('#')) return null;
  const segments = query.split('&').filter((segment) => segment !== '');
  if (segments.length > MAX_PARAMETERS) return null;
  const params = new Map<string, string>();
  for (const segment of segments) {
    const equals = segment.indexOf('=');
    const key = decode(equals === -1 ? segment : segment.slice(0, equals));
    const value = decode(equals === -1 ? '' : segment.slice(equals + 1));
    if (key === null || value === null || params.has(key)) return null;
    params.set(key, value);
  }
  if (params.get('v') !== PAYMENT_URI_VERSION) return null;
  const payee = PAYEE_PATTERN.exec(params.get('pa')?.toLowerCase() ?? '');
  if (payee === null) return null;
  let amountPaise: bigint | undefined;
  const am = params.get('am');
  if (am !== undefined) {
    const match = AMOUNT_PATTERN.exec(am);
    if (match?.[1] === undefined) return null;
    amountPaise = BigInt(match[1]) * 100n + BigInt((match[2] ?? '').padEnd(2, '0'));
  }
  const qr = params.get('qr');
  const parsed = paymentRequestSchema.safeParse({
    payee: { kind: payee[1], id: payee[2] },
    payee_name: params.get('pn') ?? '',
    ...(amountPaise === undefined ? {} : { amount_paise: amountPaise }),
    ...(qr === undefined ? {} : { qr }),
  });
  return parsed.success ? parsed.data : null;
}

/** A scanned text as a request, for schemas that take the URI: anything else is the invalid-QR message. */
export const paymentUriSchema = z
  .string()
  .max(PAYMENT_URI_MAX_LENGTH, messages.invalidQr)
  .transform((text, context) => {
    const request = parsePaymentUri(text);
    if (request === null) {
      context.addIssue({ code: 'custom', message: messages.invalidQr });
      return z.NEVER;
    }
    return request;
  });

// POST /api/qr/resolve: a signed-in payer's scan, answered with what the transfer form needs.
export const qrResolveRequestSchema = z.object({
  uri: z
    .string({ error: messages.invalidQr })
    .min(1, messages.invalidQr)
    .max(PAYMENT_URI_MAX_LENGTH, messages.invalidQr),
});
export const qrResolveResponseSchema = z.object({
  payee_kind: payeeKindSchema,
  /** The payee's current name (a store's name, a person's username). */
  payee_name: z.string(),
  /** The address the transfer goes to: the payee's account email and/or phone. */
  receiverEmail: z.string().nullable(),
  receiverPhone: z.string().nullable(),
  /** A fixed amount in rupees ("250.00"), or null when the payer types it. */
  amount: z.string().nullable(),
});
export type QrResolveResponse = z.infer<typeof qrResolveResponseSchema>;

// GET /api/qr/receive?amount=: the signed-in person's own code, optionally for a fixed amount.
export const receiveQrQuerySchema = z.object({
  amount: z
    .string()
    .regex(AMOUNT_PATTERN, messages.invalidAmount)
    .refine((text) => !/^0+(\.0{0,2})?$/.test(text), messages.invalidAmount)
    .optional(),
});
export const paymentUriResponseSchema = z.object({ uri: z.string(), payee_name: z.string() });

// Store codes: POST/GET /api/merchant/qr-codes
export const QR_LABEL_MAX_CHARS = 60;
export const createQrCodeRequestSchema = z.object({
  /** Optional fixed amount in rupees (a JSON number, as every amount the clients send). */
  amount: z
    .number({ error: messages.invalidAmount })
    .refine((value) => value > 0, messages.amountPositive)
    .optional(),
  label: z.string().trim().max(QR_LABEL_MAX_CHARS, messages.qrLabelTooLong).optional(),
});
export const qrCodeSchema = z.object({
  id: z.string(),
  uri: z.string(),
  label: z.string().nullable(),
  amount: z.string().nullable(),
  scans: z.number().int(),
  created_at: z.string(),
});
export type QrCode = z.infer<typeof qrCodeSchema>;
export const qrCodeResponseSchema = z.object({ message: z.string(), qr_code: qrCodeSchema });
export const qrCodeListSchema = z.object({ qr_codes: z.array(qrCodeSchema) });
