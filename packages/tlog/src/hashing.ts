/**
 * RFC 6962 / RFC 9162 §2.1.1 hashing with domain separation: a leaf is SHA-256(0x00 ‖ entry), an interior
 * node SHA-256(0x01 ‖ left ‖ right), so a leaf can never be passed off as a node (second-preimage attacks).
 */
import { sha256 } from '@noble/hashes/sha2';
import { concatBytes } from './encoding';

export { sha256 };

/** Every hash in the tree is a SHA-256 digest. */
export const HASH_SIZE = 32;

/** MTH({}) of RFC 9162: the root of the empty tree is the hash of the empty string. */
export const EMPTY_ROOT: Uint8Array = sha256(new Uint8Array(0));

/*
 * A fresh noble hasher allocates its buffers, which costs about a third of hashing a tree node. The tree
 * hashes instead reset one scratch hasher to the pristine state with `_cloneInto` (noble's documented way to
 * reuse an instance "for performance") and digest into a scratch buffer. All of this is synchronous: no
 * call can interleave with another.
 */
const pristine = sha256.create();
const scratch = sha256.create();
const digest = new Uint8Array(HASH_SIZE);

/** SHA-256 of `input` through the reused hasher; one `update`, as each call has a fixed cost. */
function hashOnce(input: Uint8Array): Uint8Array {
  pristine._cloneInto(scratch);
  scratch.update(input);
  scratch.digestInto(digest);
  return digest.slice();
}

// Scratch inputs with the prefix byte in place: 0x00 ‖ entry (grown up to a bound, so one huge entry does
// not pin its size in memory) and 0x01 ‖ left ‖ right.
const MAX_SCRATCH_ENTRY = 64 * 1024;
let leafInput = new Uint8Array(1024);
const nodeInput = new Uint8Array(1 + 2 * HASH_SIZE);
nodeInput[0] = 0x01;

export function leafHash(entry: Uint8Array): Uint8Array {
  if (entry.length + 1 > leafInput.length) {
    if (entry.length > MAX_SCRATCH_ENTRY) return hashOnce(concatBytes(Uint8Array.of(0x00), entry));
    leafInput = new Uint8Array(2 * (entry.length + 1));
  }
  leafInput[0] = 0x00;
  leafInput.set(entry, 1);
  return hashOnce(leafInput.subarray(0, entry.length + 1));
}

export function nodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  if (left.length !== HASH_SIZE || right.length !== HASH_SIZE) {
    throw new RangeError(`node children must be ${HASH_SIZE}-byte hashes`);
  }
  nodeInput.set(left, 1);
  nodeInput.set(right, 1 + HASH_SIZE);
  return hashOnce(nodeInput);
}

/**
 * The two tree hashes as one object, so a caller can swap the SHA-256 implementation. The default is noble
 * (runs everywhere); `sha256-node.ts` offers node:crypto's, about twice as fast for a server-side audit.
 */
export interface TreeHasher {
  leaf(entry: Uint8Array): Uint8Array;
  node(left: Uint8Array, right: Uint8Array): Uint8Array;
}

export const nobleTreeHasher: TreeHasher = { leaf: leafHash, node: nodeHash };
