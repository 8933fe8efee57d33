/**
 * Proof verification, written step for step after RFC 9162 §2.1.3.2 (inclusion) and §2.1.4.2 (consistency),
 * so each line can be checked against the RFC. These run in the browser on data from the server: every
 * length and size is checked before use, and every loop is bounded by the proof's length.
 */
import { equalBytes } from './encoding';
import { HASH_SIZE, nodeHash } from './hashing';

/** Longer proofs cannot belong to a tree of at most 2^53 leaves; refusing them bounds the work. */
export const MAX_PROOF_LENGTH = 2 * 64;

function isSize(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0;
}

function wellFormed(proof: readonly Uint8Array[]): boolean {
  return proof.length <= MAX_PROOF_LENGTH && proof.every((hash) => hash.length === HASH_SIZE);
}

const isOdd = (n: number): boolean => n % 2 === 1;
const half = (n: number): number => Math.floor(n / 2);

function isPowerOfTwo(n: number): boolean {
  let k = 1;
  while (k < n) k *= 2;
  return k === n;
}

/**
 * True when `proof` shows that the leaf with hash `leaf` is at `index` in the tree of `size` leaves whose
 * root is `root` (RFC 9162 §2.1.3.2).
 */
export function verifyInclusion(
  leaf: Uint8Array,
  index: number,
  size: number,
  proof: readonly Uint8Array[],
  root: Uint8Array,
): boolean {
  if (!isSize(index) || !isSize(size) || !wellFormed(proof)) return false;
  if (leaf.length !== HASH_SIZE || root.length !== HASH_SIZE) return false;
  // 1. leaf_index must be smaller than tree_size.
  if (index >= size) return false;
  // 2. fn = leaf_index, sn = tree_size − 1.  3. r = hash.
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  // 4. For each p in inclusion_path:
  for (const p of proof) {
    // a. sn = 0 means the proof is longer than the path: fail.
    if (sn === 0) return false;
    // b. p is a left sibling when fn is a right child or the last node of its level.
    if (isOdd(fn) || fn === sn) {
      r = nodeHash(p, r);
      // If LSB(fn) is not set, shift until it is or fn is 0: the levels where the node is the last of its
      // level have no sibling on the right edge of an unbalanced tree.
      while (!isOdd(fn) && fn !== 0) {
        fn = half(fn);
        sn = half(sn);
      }
    } else {
      r = nodeHash(r, p);
    }
    // c. Up one level.
    fn = half(fn);
    sn = half(sn);
  }
  // 5. The path must have reached the root, and the root must match.
  return sn === 0 && equalBytes(r, root);
}

/**
 * True when `proof` shows that the tree of `first` leaves with root `firstRoot` is a prefix of the tree of
 * `second` leaves with root `secondRoot` (RFC 9162 §2.1.4.2). The RFC states the algorithm for
 * 0 < first < second; equal sizes need an empty proof and equal roots. A proof from size 0 is not defined
 * and is refused, as transparency-dev/merkle's verifier does ("consistency proof from empty tree is
 * meaningless"): the empty tree is a prefix of every tree, so a caller holding a size-0 head has nothing to
 * check (its root must be EMPTY_ROOT, which parseCheckpoint enforces) and must not ask this function.
 */
export function verifyConsistency(
  first: number,
  second: number,
  proof: readonly Uint8Array[],
  firstRoot: Uint8Array,
  secondRoot: Uint8Array,
): boolean {
  if (!isSize(first) || !isSize(second) || !wellFormed(proof)) return false;
  if (first === 0) return false;
  if (first > second) return false;
  if (first === second) return proof.length === 0 && equalBytes(firstRoot, secondRoot);
  if (firstRoot.length !== HASH_SIZE || secondRoot.length !== HASH_SIZE) return false;
  // 1. An empty consistency_path fails.
  if (proof.length === 0) return false;
  // 2. When first is an exact power of 2, the old root is itself a node of the new tree: prepend it.
  const path = isPowerOfTwo(first) ? [firstRoot, ...proof] : proof;
  // 3. fn = first − 1, sn = second − 1.
  let fn = first - 1;
  let sn = second - 1;
  // 4. While LSB(fn) is set, shift both right.
  while (isOdd(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  // 5. fr = sr = the first value of the path.
  let fr = path[0]!;
  let sr = path[0]!;
  // 6. For each subsequent value c:
  for (let i = 1; i < path.length; i++) {
    const c = path[i]!;
    // sn = 0 means the proof is longer than the path: fail.
    if (sn === 0) return false;
    if (isOdd(fn) || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      while (!isOdd(fn) && fn !== 0) {
        fn = half(fn);
        sn = half(sn);
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = half(fn);
    sn = half(sn);
  }
  // 7. Both roots must match and the path must have reached the new root.
  return equalBytes(fr, firstRoot) && equalBytes(sr, secondRoot) && sn === 0;
}
