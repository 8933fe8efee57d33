/**
 * C2SP checkpoints (c2sp.org/tlog-checkpoint): the log's signed tree head, as the text of a signed note.
 *
 *   <origin>
 *   <tree size in decimal>
 *   <base64 root hash>
 *   [extension lines]
 *
 * A log must never sign two checkpoints that no consistency proof can join; `CheckpointSigner` makes that a
 * property of the code rather than of the caller's care.
 */
import { base64ToBytes, bytesToBase64, equalBytes, isWellFormedText } from './encoding';
import { EMPTY_ROOT, HASH_SIZE } from './hashing';
import type { MerkleLog } from './merkle-log';
import {
  openNote,
  parseSignerKey,
  parseVerifierKey,
  signNote,
  type NoteSigner,
  type NoteVerifier,
} from './note';
import { fail, ok, type Result } from './result';
import { verifyConsistency } from './verify';

export interface Checkpoint {
  /** The log's identity, e.g. `hasta.example/log`; it should also be the signing key's name. */
  origin: string;
  size: number;
  root: Uint8Array;
  /** Optional extra lines (discouraged by the spec: monitors cannot audit them). */
  extensions: readonly string[];
}

function isLine(text: string): boolean {
  if (text.length === 0 || !isWellFormedText(text)) return false;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) < 0x20) return false;
  return true;
}

/** The checkpoint's note text. */
export function formatCheckpoint(checkpoint: Checkpoint): string {
  const { origin, size, root, extensions } = checkpoint;
  if (!isLine(origin)) throw new Error('a checkpoint origin is one non-empty line');
  if (!Number.isSafeInteger(size) || size < 0) throw new RangeError(`bad tree size ${size}`);
  if (root.length !== HASH_SIZE) throw new RangeError(`a root hash has ${HASH_SIZE} bytes`);
  if (size === 0 && !equalBytes(root, EMPTY_ROOT)) throw new RangeError('the empty tree has one root');
  if (!extensions.every(isLine)) throw new Error('checkpoint extension lines are non-empty single lines');
  return [origin, String(size), bytesToBase64(root), ...extensions].map((line) => `${line}\n`).join('');
}

/** Parses a checkpoint's note text (not the signatures: see `openCheckpoint`). */
export function parseCheckpoint(text: string): Result<Checkpoint> {
  if (!text.endsWith('\n')) return fail('malformed checkpoint: the text must end with a newline');
  const lines = text.slice(0, -1).split('\n');
  if (lines.length < 3) return fail('malformed checkpoint: fewer than three lines');
  if (!lines.every(isLine)) return fail('malformed checkpoint: empty line or control character');
  const [origin, sizeText, rootText, ...extensions] = lines as [string, string, string, ...string[]];
  // Decimal with no leading zeros, so each size has exactly one spelling.
  if (!/^(0|[1-9][0-9]{0,15})$/.test(sizeText) || !Number.isSafeInteger(Number(sizeText))) {
    return fail('malformed checkpoint: bad tree size');
  }
  const root = base64ToBytes(rootText);
  if (root === null || root.length !== HASH_SIZE) return fail('malformed checkpoint: bad root hash');
  if (sizeText === '0' && !equalBytes(root, EMPTY_ROOT)) {
    return fail('malformed checkpoint: the empty tree has one root, SHA-256 of nothing');
  }
  return ok({ origin, size: Number(sizeText), root, extensions });
}

/** Signs a checkpoint with no memory of earlier ones. Logs sign through `CheckpointSigner` instead. */
export function signCheckpoint(checkpoint: Checkpoint, signer: NoteSigner): string {
  return signNote(formatCheckpoint(checkpoint), [signer]);
}

/** Checks the note's signature by `verifier`, parses the checkpoint and, when given, checks its origin. */
export function openCheckpoint(
  note: string,
  verifier: NoteVerifier | string,
  expectedOrigin?: string,
): Result<Checkpoint> {
  let key: NoteVerifier;
  try {
    key = typeof verifier === 'string' ? parseVerifierKey(verifier) : verifier;
  } catch (error) {
    return fail((error as Error).message);
  }
  const opened = openNote(note, [key]);
  if (!opened.ok) {
    return fail(
      opened.reason === 'note has no verifiable signatures'
        ? `checkpoint is not signed by key ${key.name}`
        : `checkpoint signature: ${opened.reason}`,
    );
  }
  const checkpoint = parseCheckpoint(opened.value.text);
  if (!checkpoint.ok) return checkpoint;
  if (expectedOrigin !== undefined && checkpoint.value.origin !== expectedOrigin) {
    return fail(`checkpoint origin is ${checkpoint.value.origin}, expected ${expectedOrigin}`);
  }
  return checkpoint;
}

/** The tree head a signer signed last: what it must stay consistent with. */
export interface SignedHead {
  size: number;
  root: Uint8Array;
}

export class CheckpointRefusedError extends Error {
  override name = 'CheckpointRefusedError';
}

/**
 * Signs a log's checkpoints and refuses any that is inconsistent with the last one it signed: a smaller
 * size, another root at the same size, or a larger size without a consistency proof that verifies.
 *
 * The server persists `last` durably before it publishes the note it got (and passes it back in after a
 * restart); otherwise a restart would forget what was promised.
 */
export class CheckpointSigner {
  readonly origin: string;
  private readonly signer: NoteSigner;
  private head: SignedHead | null;

  constructor(options: { signer: NoteSigner | string; origin?: string; last?: SignedHead | null }) {
    this.signer = typeof options.signer === 'string' ? parseSignerKey(options.signer) : options.signer;
    this.origin = options.origin ?? this.signer.name;
    const last = options.last ?? null;
    if (last !== null && last.size === 0 && !equalBytes(last.root, EMPTY_ROOT)) {
      throw new CheckpointRefusedError(
        'the last signed head is the empty tree with another root than SHA-256 of nothing',
      );
    }
    this.head = last === null ? null : { size: last.size, root: last.root.slice() };
  }

  get verifierKey(): string {
    return this.signer.verifierKey;
  }

  get last(): SignedHead | null {
    return this.head === null ? null : { size: this.head.size, root: this.head.root.slice() };
  }

  /**
   * Signs the checkpoint for (size, root). `consistencyProof` is the proof from the last signed size to
   * this one; it is not needed for the first checkpoint or when the size has not changed.
   */
  sign(
    head: SignedHead & { extensions?: readonly string[] },
    consistencyProof: readonly Uint8Array[] = [],
  ): string {
    const { size, root } = head;
    if (!Number.isSafeInteger(size) || size < 0 || root.length !== HASH_SIZE) {
      throw new CheckpointRefusedError('malformed tree head');
    }
    if (size === 0 && !equalBytes(root, EMPTY_ROOT)) {
      throw new CheckpointRefusedError('the empty tree has one root: SHA-256 of nothing');
    }
    const last = this.head;
    if (last !== null) {
      if (size < last.size) {
        throw new CheckpointRefusedError(
          `refusing to sign size ${size}: size ${last.size} is already signed`,
        );
      }
      // The empty tree (its root checked when it was signed) is a prefix of every tree: nothing to prove.
      if (last.size > 0 && !verifyConsistency(last.size, size, consistencyProof, last.root, root)) {
        throw new CheckpointRefusedError(
          size === last.size
            ? `refusing to sign another root for size ${size}`
            : `refusing to sign size ${size}: no valid consistency proof from size ${last.size}`,
        );
      }
    }
    const note = signCheckpoint(
      { origin: this.origin, size, root, extensions: head.extensions ?? [] },
      this.signer,
    );
    this.head = { size, root: root.slice() };
    return note;
  }

  /** Signs the log's current head, computing the consistency proof from the last signed size itself. */
  signLog(log: MerkleLog): string {
    const size = log.size;
    const last = this.head;
    const proof = last === null || last.size > size ? [] : log.consistencyProof(last.size, size);
    return this.sign({ size, root: log.root(size) }, proof);
  }
}
