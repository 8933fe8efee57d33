/**
 * C2SP signed notes (c2sp.org/signed-note) with Ed25519, compatible with golang.org/x/mod/sumdb/note:
 *
 *   <text ending in a newline>
 *   <blank line>
 *   — <key name> <base64(4-byte key ID ‖ 64-byte signature)>
 *
 * key ID = the first 4 bytes (big-endian) of SHA-256(key name ‖ 0x0A ‖ 0x01 ‖ 32-byte public key).
 * Verifier key: `<name>+<8 hex digits of key ID>+<base64(0x01 ‖ public key)>`.
 * Signer key:   `PRIVATE+KEY+<name>+<8 hex digits of key ID>+<base64(0x01 ‖ 32-byte seed)>`.
 */
import { ed25519 } from '@noble/curves/ed25519';
import { randomBytes } from '@noble/hashes/utils';
import { base64ToBytes, bytesToBase64, concatBytes, isWellFormedText, utf8ToBytes } from './encoding';
import { sha256 } from './hashing';
import { fail, ok, type Result } from './result';

/** Signature type byte of Ed25519 in signed notes. */
export const ED25519_SIGNATURE_TYPE = 0x01;
/** golang.org/x/mod/sumdb/note refuses notes with more signatures; the spec requires accepting 16. */
export const MAX_NOTE_SIGNATURES = 100;
/** Checkpoints are a few hundred bytes; a bound keeps a hostile note from costing more than that. */
export const MAX_NOTE_LENGTH = 64 * 1024;

const SIGNATURE_PREFIX = '\u2014 '; // em dash, space

export interface NoteVerifier {
  readonly name: string;
  /** The 32-bit key ID, as an unsigned number. */
  readonly keyId: number;
  readonly publicKey: Uint8Array;
  /** The verifier key text this verifier was made from. */
  readonly verifierKey: string;
}

export interface NoteSigner extends NoteVerifier {
  sign(message: Uint8Array): Uint8Array;
}

/** Key names are non-empty, with no Unicode space and no '+' (they are '+'-separated in key texts). */
export function isValidKeyName(name: string): boolean {
  return name.length > 0 && isWellFormedText(name) && !/[\s\u0085+]/u.test(name);
}

/** The C2SP key ID of an Ed25519 key. */
export function noteKeyId(name: string, publicKey: Uint8Array): number {
  const digest = sha256(
    concatBytes(utf8ToBytes(name), Uint8Array.of(0x0a, ED25519_SIGNATURE_TYPE), publicKey),
  );
  return ((digest[0]! << 24) | (digest[1]! << 16) | (digest[2]! << 8) | digest[3]!) >>> 0;
}

const keyIdHex = (keyId: number): string => keyId.toString(16).padStart(8, '0');

/** The verifier key text for an Ed25519 public key. */
export function formatVerifierKey(name: string, publicKey: Uint8Array): string {
  if (!isValidKeyName(name)) throw new Error(`invalid key name ${JSON.stringify(name)}`);
  if (publicKey.length !== 32) throw new Error('an Ed25519 public key has 32 bytes');
  const encoded = bytesToBase64(concatBytes(Uint8Array.of(ED25519_SIGNATURE_TYPE), publicKey));
  return `${name}+${keyIdHex(noteKeyId(name, publicKey))}+${encoded}`;
}

/** Splits `name+hhhhhhhh+base64(0x01 ‖ 32 bytes)` and checks each part; null when anything is off. */
function parseKeyParts(text: string): { name: string; keyId: number; key: Uint8Array } | null {
  const parts = text.split('+');
  // The base64 part may itself contain '+': rejoin everything after the second separator.
  if (parts.length < 3) return null;
  const [name, hex] = parts as [string, string];
  const key = base64ToBytes(parts.slice(2).join('+'));
  if (!isValidKeyName(name) || !/^[0-9a-f]{8}$/.test(hex) || key === null) return null;
  if (key.length !== 33 || key[0] !== ED25519_SIGNATURE_TYPE) return null;
  return { name, keyId: Number.parseInt(hex, 16), key: key.subarray(1) };
}

/** Parses a verifier key text; throws when it is malformed or its key ID does not match its key. */
export function parseVerifierKey(verifierKey: string): NoteVerifier {
  const parts = parseKeyParts(verifierKey.trim());
  if (parts === null) throw new Error('malformed verifier key');
  if (parts.keyId !== noteKeyId(parts.name, parts.key))
    throw new Error('verifier key ID does not match its key');
  return {
    name: parts.name,
    keyId: parts.keyId,
    publicKey: parts.key.slice(),
    verifierKey: verifierKey.trim(),
  };
}

/** Parses a signer key text (keep it secret); throws when it is malformed or its key ID does not match. */
export function parseSignerKey(signerKey: string): NoteSigner {
  const parts = parseSignerParts(signerKey);
  const seed = parts.key.slice();
  const publicKey = ed25519.getPublicKey(seed);
  if (parts.keyId !== noteKeyId(parts.name, publicKey))
    throw new Error('signer key ID does not match its key');
  return {
    name: parts.name,
    keyId: parts.keyId,
    publicKey,
    verifierKey: formatVerifierKey(parts.name, publicKey),
    sign: (message) => ed25519.sign(message, seed),
  };
}

/** The 32-byte Ed25519 seed of a signer key text (keep it secret), for a signer other than this module's. */
export function signerKeySeed(signerKey: string): Uint8Array {
  return parseSignerParts(signerKey).key.slice();
}

function parseSignerParts(signerKey: string): { name: string; keyId: number; key: Uint8Array } {
  const text = signerKey.trim();
  if (!text.startsWith('PRIVATE+KEY+')) throw new Error('malformed signer key');
  const parts = parseKeyParts(text.slice('PRIVATE+KEY+'.length));
  if (parts === null) throw new Error('malformed signer key');
  return parts;
}

/** A new key pair for `name`, from 32 random bytes unless a seed is given (tests). */
export function generateNoteKeys(
  name: string,
  seed: Uint8Array = randomBytes(32),
): { signerKey: string; verifierKey: string } {
  if (seed.length !== 32) throw new Error('an Ed25519 seed has 32 bytes');
  const publicKey = ed25519.getPublicKey(seed);
  const verifierKey = formatVerifierKey(name, publicKey);
  const encodedSeed = bytesToBase64(concatBytes(Uint8Array.of(ED25519_SIGNATURE_TYPE), seed));
  return {
    signerKey: `PRIVATE+KEY+${name}+${keyIdHex(noteKeyId(name, publicKey))}+${encodedSeed}`,
    verifierKey,
  };
}

/** Valid UTF-8 text with no control character other than newline, as signed notes require. */
function isNoteText(text: string): boolean {
  if (!isWellFormedText(text)) return false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 && code !== 0x0a) return false;
  }
  return true;
}

/** Signs `text` (which must end with a newline) with each signer, giving the signed note. */
export function signNote(text: string, signers: readonly NoteSigner[]): string {
  if (!text.endsWith('\n') || !isNoteText(text)) throw new Error('malformed note text');
  if (signers.length === 0) throw new Error('a note needs at least one signature');
  const message = utf8ToBytes(text);
  const lines = signers.map((signer) => {
    const keyId = new Uint8Array(4);
    new DataView(keyId.buffer).setUint32(0, signer.keyId);
    return `${SIGNATURE_PREFIX}${signer.name} ${bytesToBase64(concatBytes(keyId, signer.sign(message)))}\n`;
  });
  return `${text}\n${lines.join('')}`;
}

export interface NoteSignature {
  name: string;
  keyId: number;
}

export interface OpenedNote {
  text: string;
  /** The signatures that verified with a known key. */
  verified: NoteSignature[];
  /** Signatures from keys that were not given: ignored, as the spec requires. */
  unverified: NoteSignature[];
}

/**
 * Parses a signed note and checks its signatures against the known verifiers (golang.org/x/mod/sumdb/note
 * `Open`): a signature from an unknown key is ignored; one from a known key must verify or the whole note
 * is refused; at least one known key must have signed.
 */
export function openNote(message: string, verifiers: readonly NoteVerifier[]): Result<OpenedNote> {
  if (message.length > MAX_NOTE_LENGTH) return fail('malformed note: too long');
  if (!isNoteText(message)) return fail('malformed note: not UTF-8 text or has control characters');
  const split = message.lastIndexOf('\n\n');
  if (split < 0) return fail('malformed note: no blank line before the signatures');
  const text = message.slice(0, split + 1);
  const block = message.slice(split + 2);
  if (block.length === 0 || !block.endsWith('\n')) return fail('malformed note: no signature lines');

  const known = new Map<string, NoteVerifier[]>();
  for (const verifier of verifiers) {
    const key = `${verifier.name}+${verifier.keyId}`;
    known.set(key, [...(known.get(key) ?? []), verifier]);
  }
  const textBytes = utf8ToBytes(text);
  const verified: NoteSignature[] = [];
  const unverified: NoteSignature[] = [];
  const seen = new Set<string>();
  const lines = block.slice(0, -1).split('\n');
  if (lines.length > MAX_NOTE_SIGNATURES) return fail('malformed note: too many signatures');
  for (const line of lines) {
    if (!line.startsWith(SIGNATURE_PREFIX))
      return fail('malformed note: a signature line must start with "— "');
    const rest = line.slice(SIGNATURE_PREFIX.length);
    const space = rest.indexOf(' ');
    const name = space < 0 ? rest : rest.slice(0, space);
    const encoded = space < 0 ? '' : rest.slice(space + 1);
    const raw = base64ToBytes(encoded);
    if (!isValidKeyName(name) || raw === null || raw.length < 5) {
      return fail('malformed note: bad signature line');
    }
    const keyId = new DataView(raw.buffer, raw.byteOffset).getUint32(0);
    const candidates = known.get(`${name}+${keyId}`);
    const label = `${name}+${keyIdHex(keyId)}`;
    if (candidates === undefined) {
      if (!seen.has(line)) unverified.push({ name, keyId });
      seen.add(line);
      continue;
    }
    if (candidates.length > 1) return fail(`ambiguous key ${label}`);
    if (seen.has(label)) continue;
    seen.add(label);
    if (!verifyEd25519(raw.subarray(4), textBytes, candidates[0]!.publicKey)) {
      return fail(`invalid signature for key ${label}`);
    }
    verified.push({ name, keyId });
  }
  if (verified.length === 0) return fail('note has no verifiable signatures');
  return ok({ text, verified, unverified });
}

function verifyEd25519(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  if (signature.length !== 64) return false;
  try {
    // RFC 8032's strict rules, as Go's crypto/ed25519 applies them: one valid encoding per signature.
    return ed25519.verify(signature, message, publicKey, { zip215: false });
  } catch {
    return false;
  }
}
