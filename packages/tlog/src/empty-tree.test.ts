import { describe, expect, it } from 'vitest';
import { CheckpointSigner, openCheckpoint, parseCheckpoint, signCheckpoint } from './checkpoint';
import { bytesToBase64, utf8ToBytes } from './encoding';
import { EMPTY_ROOT, sha256 } from './hashing';
import { MerkleLog } from './merkle-log';
import { generateNoteKeys, parseSignerKey, signNote } from './note';
import { verifyConsistency } from './verify';

/**
 * The empty tree (issue 23, item 8). RFC 9162 defines no consistency proof from size 0, and
 * transparency-dev/merkle's verifier now refuses one ("consistency proof from empty tree is meaningless"):
 * a verifier that accepts (0, n) with any roots vouches for whatever a log claims. A tree of size 0 has one
 * root, SHA-256 of nothing; a checkpoint claiming another is malformed.
 */

const ORIGIN = 'hasta.example/log';
const keys = generateNoteKeys(ORIGIN, new Uint8Array(32).fill(3));
const signer = parseSignerKey(keys.signerKey);
const anyRoot = sha256(utf8ToBytes('any root'));
const otherRoot = sha256(utf8ToBytes('another root'));

function logOf(size: number): MerkleLog {
  const log = new MerkleLog();
  for (let i = 0; i < size; i++) log.append(utf8ToBytes(`entry ${i}`));
  return log;
}

describe('consistency proofs from the empty tree', () => {
  it('refuses (0, n) with arbitrary roots', () => {
    expect(verifyConsistency(0, 5, [], anyRoot, otherRoot)).toBe(false);
    expect(verifyConsistency(0, 1, [], otherRoot, anyRoot)).toBe(false);
  });

  it('refuses (0, n) even with the empty root and the real root: there is nothing to prove', () => {
    const log = logOf(7);
    expect(verifyConsistency(0, 7, [], EMPTY_ROOT, log.root())).toBe(false);
    expect(verifyConsistency(0, 7, log.consistencyProof(0, 7), EMPTY_ROOT, log.root())).toBe(false);
  });

  it('refuses (0, 0) whatever the roots', () => {
    expect(verifyConsistency(0, 0, [], anyRoot, anyRoot)).toBe(false);
    expect(verifyConsistency(0, 0, [], EMPTY_ROOT, EMPTY_ROOT)).toBe(false);
  });

  it('still verifies proofs between non-empty trees', () => {
    const log = logOf(7);
    expect(verifyConsistency(3, 7, log.consistencyProof(3, 7), log.root(3), log.root(7))).toBe(true);
    expect(verifyConsistency(7, 7, [], log.root(7), log.root(7))).toBe(true);
  });
});

describe('checkpoints of the empty tree', () => {
  const note = (size: number, root: Uint8Array) => `${ORIGIN}\n${size}\n${bytesToBase64(root)}\n`;

  it('refuses a size-0 checkpoint whose root is not the empty-tree hash', () => {
    const parsed = parseCheckpoint(note(0, anyRoot));
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.reason).toMatch(/empty tree/);
  });

  it('refuses it signed too: a valid signature does not make the root right', () => {
    const signed = signNote(note(0, anyRoot), [signer]);
    expect(openCheckpoint(signed, keys.verifierKey).ok).toBe(false);
  });

  it('never formats one', () => {
    expect(() => signCheckpoint({ origin: ORIGIN, size: 0, root: anyRoot, extensions: [] }, signer)).toThrow(
      /empty tree/,
    );
  });

  it('accepts the size-0 checkpoint with the empty-tree hash', () => {
    const parsed = parseCheckpoint(note(0, EMPTY_ROOT));
    expect(parsed.ok && parsed.value.size).toBe(0);
    const signed = signCheckpoint({ origin: ORIGIN, size: 0, root: EMPTY_ROOT, extensions: [] }, signer);
    expect(openCheckpoint(signed, keys.verifierKey).ok).toBe(true);
  });

  it('a signer that remembers an empty tree with another root refuses to start', () => {
    expect(() => new CheckpointSigner({ signer, last: { size: 0, root: anyRoot } })).toThrow(/empty tree/);
  });

  it('a signer whose last head is the empty tree signs any next size: nothing to check', () => {
    const checkpoints = new CheckpointSigner({ signer });
    checkpoints.sign({ size: 0, root: EMPTY_ROOT });
    const log = logOf(9);
    expect(() => checkpoints.signLog(log)).not.toThrow();
    expect(checkpoints.last).toEqual({ size: 9, root: log.root() });
    // And from a restart that remembers the empty tree.
    const restarted = new CheckpointSigner({ signer, last: { size: 0, root: EMPTY_ROOT } });
    expect(() => restarted.sign({ size: 9, root: log.root() })).not.toThrow();
    // The empty tree again is fine; another root for it is not.
    const again = new CheckpointSigner({ signer, last: { size: 0, root: EMPTY_ROOT } });
    expect(() => again.sign({ size: 0, root: EMPTY_ROOT })).not.toThrow();
    expect(() => again.sign({ size: 0, root: anyRoot })).toThrow();
  });
});
