import { z } from 'zod';
import { merchantPaymentSchema } from './merchant';
import { messages } from './messages';
import { rupeesAmountSchema } from './wallet';

/**
 * Devices (issue 22): kiosks that register palms, store terminals that take palm payments, and a person's own
 * browser. A device is paired once (a pairing code, or a signed-in person's step-up) and then holds a device
 * token (sent as the DEVICE_HEADER) and a non-extractable ECDSA P-256 key. Every palm scan starts with a
 * single-use challenge the device signs over the scan's frames; the server checks it before it looks at a
 * frame. The shared signing helpers below use WebCrypto only, so the browser and the server run the same code.
 */

/** The header a paired device sends its token in. A device token is never a session: no wallet, no admin. */
export const DEVICE_HEADER = 'x-hasta-device';

export const deviceKindSchema = z.enum(['kiosk', 'terminal', 'personal']);
export type DeviceKind = z.infer<typeof deviceKindSchema>;

/** What a scan is for: enrol a palm (kiosk, personal), take a store's payment (terminal), receive (personal). */
export const scanPurposeSchema = z.enum(['enrol', 'pay', 'receive']);
export type ScanPurpose = z.infer<typeof scanPurposeSchema>;

/** Which purposes each kind of device may ask a challenge for. */
export const DEVICE_PURPOSES: Record<DeviceKind, readonly ScanPurpose[]> = {
  kiosk: ['enrol'],
  terminal: ['pay'],
  personal: ['enrol', 'receive'],
};

/** A pairing code: 8 characters of PAIRING_CODE_ALPHABET, single use, PAIRING_CODE_TTL_MS. */
export const PAIRING_CODE_LENGTH = 8;
/** No 0/O, 1/I/L: read aloud or typed on a tablet without doubt. */
export const PAIRING_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const PAIRING_CODE_TTL_MS = 10 * 60_000;
/** A scan challenge lives this long and is used once. */
export const SCAN_CHALLENGE_TTL_MS = 60_000;

const base64Url = /^[A-Za-z0-9_-]+$/;

/** An EC P-256 public key as WebCrypto exports it (extra members such as ext and key_ops are dropped). */
export const devicePublicKeySchema = z.object({
  kty: z.literal('EC', messages.devicePublicKeyInvalid),
  crv: z.literal('P-256', messages.devicePublicKeyInvalid),
  x: z.string().length(43, messages.devicePublicKeyInvalid).regex(base64Url, messages.devicePublicKeyInvalid),
  y: z.string().length(43, messages.devicePublicKeyInvalid).regex(base64Url, messages.devicePublicKeyInvalid),
});
export type DevicePublicKey = z.infer<typeof devicePublicKeySchema>;

const deviceNameSchema = z.string().trim().min(1, messages.fillAllRequired).max(80);

/** A device as the owner, the admin or the device itself sees it. */
export const deviceSchema = z.object({
  id: z.string(),
  kind: deviceKindSchema,
  name: z.string(),
  /** A terminal's store. */
  store_id: z.string().nullable(),
  store_name: z.string().nullable(),
  /** A kiosk's place in the kiosk locator. */
  kiosk_id: z.string().nullable(),
  kiosk_name: z.string().nullable(),
  /** Who paired it (the store's owner, the admin, or the person whose browser it is). */
  owner_user_id: z.string(),
  /** That person's username: in an admin's answers only (null in the owner's and the device's own). */
  owner_username: z.string().nullable(),
  created_at: z.string(),
  last_seen_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  /** Palm payments taken (paid) and palms enrolled through this device. */
  payment_count: z.number().int(),
  enrolment_count: z.number().int(),
});
export type Device = z.infer<typeof deviceSchema>;

// POST /api/devices/pairing-codes: a store's owner (a terminal of their store) or an admin (a kiosk)
export const createPairingCodeRequestSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('terminal'), name: deviceNameSchema }),
  z.object({ kind: z.literal('kiosk'), name: deviceNameSchema, kiosk_id: z.string().min(1).max(100) }),
]);
export type CreatePairingCodeRequest = z.infer<typeof createPairingCodeRequestSchema>;
export const pairingCodeResponseSchema = z.object({
  code: z.string(),
  kind: z.enum(['terminal', 'kiosk']),
  name: z.string(),
  expires_at: z.string(),
});

// POST /api/devices/pair: no session needed, the code is the authority
export const pairDeviceRequestSchema = z.object({
  code: z
    .string()
    .transform((value) => value.replace(/[\s-]/g, '').toUpperCase())
    .pipe(
      z
        .string()
        .length(PAIRING_CODE_LENGTH, messages.pairingCodeInvalid)
        .regex(/^[A-Z0-9]+$/, messages.pairingCodeInvalid),
    ),
  public_key: devicePublicKeySchema,
  /** Overrides the name given with the code. */
  name: deviceNameSchema.optional(),
});
export const pairedDeviceResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  device: deviceSchema,
  /** Keep it (with the key pair) on the device; it is shown once. Send it as the DEVICE_HEADER. */
  device_token: z.string(),
});

// POST /api/devices/this-browser: a signed-in person with a live 'palm_enrol' step-up (code or passkey)
export const pairThisBrowserRequestSchema = z.object({
  /** personal: the person's own browser (/receive, /palm-register); terminal: a store owner's Accept Palm tab. */
  kind: z.enum(['personal', 'terminal']),
  public_key: devicePublicKeySchema,
  name: deviceNameSchema,
});

// GET /api/devices/me (device credential)
export const deviceMeResponseSchema = z.object({ device: deviceSchema });

// GET /api/devices (admin: every device; anyone else: the devices they own, their store's terminals included)
export const deviceListResponseSchema = z.object({ devices: z.array(deviceSchema) });

// GET /api/devices/me/payments (terminal or personal credential), GET /api/devices/:id/payments (manager)
export const devicePaymentsResponseSchema = z.object({ payments: z.array(merchantPaymentSchema) });

// POST /api/devices/:id/revoke (admin: any; anyone else: the devices they own)
export const deviceIdParamsSchema = z.object({ id: z.uuid(messages.deviceNotFound) });
export const revokeDeviceResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  device: deviceSchema,
});

// POST /Palm/challenge (device credential; a person's session too for 'enrol' and 'receive')
export const scanChallengeRequestSchema = z.object({
  purpose: scanPurposeSchema,
  /** Rupees, as the payment will carry it: required for 'pay' and 'receive', absent for 'enrol'. */
  amount: rupeesAmountSchema.optional(),
});
export const scanChallengeResponseSchema = z.object({
  /** base64url, 32 random bytes. */
  nonce: z.string(),
  purpose: scanPurposeSchema,
  /** The amount in rupees as the server reads it ("250.00"), or null for 'enrol'. Sign it as given. */
  amount: z.string().nullable(),
  /** Who the money goes to ("store:<id>" or "user:<id>"), or who is enrolling ("user:<id>"). Sign as given. */
  receiver: z.string().nullable(),
  expires_at: z.string(),
});
export type ScanChallenge = z.infer<typeof scanChallengeResponseSchema>;

/**
 * The extra body fields of every call that posts a palm scan (POST /Palm/register, POST /Palm/authenticate,
 * POST /api/transaction): the challenge's nonce and the device's signature of scanChallengeMessage.
 */
export const signedScanFieldsSchema = z.object({
  challenge: z
    .string({ error: messages.scanChallengeRequired })
    .min(1, messages.scanChallengeRequired)
    .max(100, messages.scanChallengeRequired)
    .regex(base64Url, messages.scanChallengeRequired),
  /** base64url of the raw r||s signature (64 bytes, IEEE P1363: what WebCrypto's ECDSA sign gives). */
  signature: z
    .string({ error: messages.scanChallengeRequired })
    .min(1, messages.scanChallengeRequired)
    .max(200, messages.scanChallengeRequired)
    .regex(base64Url, messages.scanChallengeRequired),
});
export type SignedScanFields = z.infer<typeof signedScanFieldsSchema>;

// The signature: ECDSA P-256 with SHA-256 over the UTF-8 bytes of scanChallengeMessage(...).

/** The WebCrypto and text encoding globals both Node 20 and browsers have (typed here: no DOM lib). */
interface WebCryptoGlobals {
  crypto: { subtle: { digest(algorithm: string, data: Uint8Array): Promise<ArrayBuffer> } };
  TextEncoder: new () => { encode(text: string): Uint8Array };
}
const web = globalThis as unknown as WebCryptoGlobals;

/** The UTF-8 bytes of a text (what is signed). */
export function utf8Bytes(text: string): Uint8Array {
  return new web.TextEncoder().encode(text);
}

function hex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}

/** sha256, lower-case hex, over the scan's base64 frames joined by '\n' (the frames as posted, undecoded). */
export async function framesDigest(frames: readonly string[]): Promise<string> {
  const digest = await web.crypto.subtle.digest('SHA-256', utf8Bytes(frames.join('\n')));
  return hex(new Uint8Array(digest));
}

export interface ScanChallengeMessageInput {
  nonce: string;
  purpose: ScanPurpose;
  amount: string | null;
  receiver: string | null;
  framesSha256: string;
}

/** The canonical text a device signs: JSON with a fixed key order, versioned by its first member. */
export function scanChallengeMessage(input: ScanChallengeMessageInput): string {
  return JSON.stringify({
    v: 'hasta-scan-challenge-1',
    nonce: input.nonce,
    purpose: input.purpose,
    amount: input.amount,
    receiver: input.receiver,
    frames_sha256: input.framesSha256,
  });
}

const BASE64URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** base64url without padding (a WebCrypto signature's bytes -> the `signature` field). */
export function toBase64Url(bytes: Uint8Array): string {
  let out = '';
  let index = 0;
  for (; index + 2 < bytes.length; index += 3) {
    const n = (bytes[index]! << 16) | (bytes[index + 1]! << 8) | bytes[index + 2]!;
    out +=
      BASE64URL_ALPHABET[(n >> 18) & 63]! +
      BASE64URL_ALPHABET[(n >> 12) & 63]! +
      BASE64URL_ALPHABET[(n >> 6) & 63]! +
      BASE64URL_ALPHABET[n & 63]!;
  }
  const rest = bytes.length - index;
  if (rest === 1) {
    const n = bytes[index]! << 16;
    out += BASE64URL_ALPHABET[(n >> 18) & 63]! + BASE64URL_ALPHABET[(n >> 12) & 63]!;
  } else if (rest === 2) {
    const n = (bytes[index]! << 16) | (bytes[index + 1]! << 8);
    out +=
      BASE64URL_ALPHABET[(n >> 18) & 63]! +
      BASE64URL_ALPHABET[(n >> 12) & 63]! +
      BASE64URL_ALPHABET[(n >> 6) & 63]!;
  }
  return out;
}
