/**
 * The log's entries. An entry says that something happened to someone, and commits to the details without
 * revealing them:
 *
 *   {"commitment":"<hex>","subject":"<hex>","time":"2025-01-31T09:41:00.000Z","type":"payment","v":1}
 *
 * - subject = HMAC-SHA-256(server secret, user id): stable per user, so a user can find their entries, but
 *   unlinkable to a person without the server's secret;
 * - time is truncated to the minute, so entries cannot be matched to events by their exact timing;
 * - commitment = SHA-256(salt ‖ canonical JSON of the record): the salt (32 random bytes, kept with the
 *   record and given to the user) stops anyone from guessing a low-entropy record and checking the guess.
 *   Erasing the record and its salt leaves an entry that can no longer be opened.
 *
 * The entry's bytes in the tree are its canonical JSON text, UTF-8 encoded.
 */
import { hmac } from '@noble/hashes/hmac';
import { randomBytes } from '@noble/hashes/utils';
import { canonicalJson, type JsonValue } from './canonical-json';
import { bytesToHex, concatBytes, equalBytes, hexToBytes, utf8ToBytes } from './encoding';
import { sha256 } from './hashing';
import { fail, ok, type Result } from './result';

export const ENTRY_TYPES = [
  'consent.granted',
  'consent.withdrawn',
  'palm.enrolled',
  'palm.erased',
  'payment',
] as const;
export type EntryType = (typeof ENTRY_TYPES)[number];

export interface LogEntry {
  v: 1;
  subject: string;
  type: EntryType;
  time: string;
  commitment: string;
}

export const SALT_BYTES = 32;
/** Shorter salts would let a guessed record be checked by brute force. */
export const MIN_SALT_BYTES = 16;
export const MIN_SERVER_SECRET_BYTES = 32;

/** The pseudonymous subject of a user's entries: hex HMAC-SHA-256(server secret, user id). */
export function entrySubject(serverSecret: Uint8Array, userId: string): string {
  if (serverSecret.length < MIN_SERVER_SECRET_BYTES) {
    throw new RangeError(`the server secret needs at least ${MIN_SERVER_SECRET_BYTES} bytes`);
  }
  if (userId.length === 0) throw new RangeError('empty user id');
  return bytesToHex(hmac(sha256, serverSecret, utf8ToBytes(userId)));
}

/** An ISO 8601 UTC time truncated to the minute, e.g. 2025-01-31T09:41:00.000Z. */
export function coarseTime(at: Date): string {
  const ms = at.getTime();
  if (!Number.isFinite(ms)) throw new RangeError('invalid date');
  return new Date(ms - (((ms % 60_000) + 60_000) % 60_000)).toISOString();
}

/** A fresh random salt for one record's commitment. */
export function newSalt(): Uint8Array {
  return randomBytes(SALT_BYTES);
}

/** Hex SHA-256(salt ‖ canonical JSON of the record). */
export function recordCommitment(record: JsonValue, salt: Uint8Array): string {
  if (salt.length < MIN_SALT_BYTES) throw new RangeError(`a salt needs at least ${MIN_SALT_BYTES} bytes`);
  return bytesToHex(sha256(concatBytes(salt, utf8ToBytes(canonicalJson(record)))));
}

/** True when `commitment` (hex) commits to `record` with `salt`. */
export function verifyCommitment(record: JsonValue, salt: Uint8Array, commitment: string): boolean {
  const expected = hexToBytes(commitment);
  if (expected === null || expected.length !== 32 || salt.length < MIN_SALT_BYTES) return false;
  let actual: string;
  try {
    actual = recordCommitment(record, salt);
  } catch {
    return false;
  }
  return equalBytes(hexToBytes(actual)!, expected);
}

/** Builds the entry for one event; the caller keeps `record` and `salt` to open the commitment later. */
export function createEntry(input: {
  serverSecret: Uint8Array;
  userId: string;
  type: EntryType;
  at: Date;
  record: JsonValue;
  salt: Uint8Array;
}): LogEntry {
  if (!ENTRY_TYPES.includes(input.type)) throw new RangeError(`unknown entry type ${input.type}`);
  return {
    v: 1,
    subject: entrySubject(input.serverSecret, input.userId),
    type: input.type,
    time: coarseTime(input.at),
    commitment: recordCommitment(input.record, input.salt),
  };
}

/** The entry's text, whose UTF-8 bytes are the leaf. */
export function encodeEntry(entry: LogEntry): string {
  return canonicalJson({ ...entry });
}

const HEX_HASH = /^[0-9a-f]{64}$/;
const FIELDS = ['commitment', 'subject', 'time', 'type', 'v'];

/** Parses an entry's text and checks that it is a well-formed entry in its one canonical spelling. */
export function parseEntry(text: string): Result<LogEntry> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return fail('entry is not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return fail('entry is not an object');
  const fields = value as Record<string, unknown>;
  if (Object.keys(fields).sort().join() !== FIELDS.join()) return fail('entry has missing or unknown fields');
  const { v, subject, type, time, commitment } = fields;
  if (v !== 1) return fail('unknown entry version');
  if (typeof subject !== 'string' || !HEX_HASH.test(subject)) return fail('entry subject is not a hex hash');
  if (typeof type !== 'string' || !(ENTRY_TYPES as readonly string[]).includes(type)) {
    return fail('unknown entry type');
  }
  if (typeof time !== 'string' || !isCoarseTime(time)) return fail('entry time is not a whole minute in UTC');
  if (typeof commitment !== 'string' || !HEX_HASH.test(commitment)) {
    return fail('entry commitment is not a hex hash');
  }
  const entry: LogEntry = { v: 1, subject, type: type as EntryType, time, commitment };
  if (encodeEntry(entry) !== text) return fail('entry is not in canonical form');
  return ok(entry);
}

function isCoarseTime(time: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00\.000Z$/.test(time)) return false;
  const at = new Date(time);
  return Number.isFinite(at.getTime()) && coarseTime(at) === time;
}
