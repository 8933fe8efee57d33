/**
 * Index arithmetic for RFC 9162 trees, with no hashing. A tree of n leaves splits at k, the largest power of
 * two smaller than n (§2.1.1); every node of such a tree covers a leaf range [start, end) that splits into
 * complete ("perfect") subtrees of decreasing size. The log stores every complete subtree as (level, index):
 * the node covering leaves [index·2^level, (index+1)·2^level). Proofs are computed from those stored nodes.
 *
 * Sizes and indices are plain numbers: exact up to 2^53, far beyond any log this product will hold, and
 * they are shifted with division because JavaScript's bit operators work on 32 bits.
 */

/** A complete subtree: 2^level leaves starting at leaf index·2^level. */
export interface NodeId {
  level: number;
  index: number;
}

/** A range of leaves [start, end) whose Merkle tree hash is one proof element. */
export interface LeafRange {
  start: number;
  end: number;
}

export function assertSize(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${what} must be a non-negative safe integer, got ${value}`);
  }
}

/** The largest power of two strictly smaller than n (n ≥ 2), the split point of RFC 9162 §2.1.1. */
export function splitPoint(n: number): number {
  if (!(n >= 2)) throw new RangeError(`a tree of ${n} leaves has no split point`);
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/**
 * The complete subtrees that make up a range of an RFC 9162 tree, largest first: one per set bit of its
 * length. The range's hash is these hashes folded from the right, h = H(first, H(second, … H(last−1, last))).
 */
export function rangeNodes(range: LeafRange): NodeId[] {
  const { start, end } = range;
  const nodes: NodeId[] = [];
  let position = start;
  let remaining = end - start;
  let width = 1;
  let level = 0;
  while (width * 2 <= remaining) {
    width *= 2;
    level++;
  }
  for (; width >= 1 && remaining > 0; width /= 2, level--) {
    if (remaining < width) continue;
    if (position % width !== 0) throw new RangeError(`range [${start}, ${end}) is not a subtree of a log`);
    nodes.push({ level, index: position / width });
    position += width;
    remaining -= width;
  }
  return nodes;
}

/** The nodes a log of `size` leaves keeps in memory to append the next leaf: its compact range. */
export function frontierNodes(size: number): NodeId[] {
  assertSize(size, 'tree size');
  return size === 0 ? [] : rangeNodes({ start: 0, end: size });
}

/**
 * The ranges whose hashes form the inclusion proof of leaf `index` in a tree of `size` leaves, nearest to the
 * leaf first: PATH(m, D[n]) of RFC 9162 §2.1.3.1.
 */
export function inclusionRanges(index: number, size: number): LeafRange[] {
  assertSize(index, 'leaf index');
  assertSize(size, 'tree size');
  if (index >= size) throw new RangeError(`leaf ${index} is not in a tree of ${size} leaves`);
  const ranges: LeafRange[] = [];
  let start = 0;
  let end = size;
  // Each step halves the width at least once: at most 53 steps.
  while (end - start > 1) {
    const k = splitPoint(end - start);
    if (index < start + k) {
      ranges.push({ start: start + k, end });
      end = start + k;
    } else {
      ranges.push({ start, end: start + k });
      start += k;
    }
  }
  return ranges.reverse();
}

/**
 * The ranges whose hashes form the consistency proof from a tree of `first` leaves to one of `second` leaves,
 * in proof order: PROOF(m, D[n]) = SUBPROOF(m, D[n], true) of RFC 9162 §2.1.4.1. Empty when first is 0 or
 * equals second (there is nothing to prove).
 */
export function consistencyRanges(first: number, second: number): LeafRange[] {
  assertSize(first, 'first tree size');
  assertSize(second, 'second tree size');
  if (first > second) throw new RangeError(`a tree of ${second} leaves cannot extend one of ${first}`);
  if (first === 0 || first === second) return [];
  const ranges: LeafRange[] = [];
  let start = 0;
  let end = second;
  // `whole` is SUBPROOF's flag b: true while the old tree's hash is still a node the verifier already has.
  let whole = true;
  for (;;) {
    const width = end - start;
    const inside = first - start;
    if (inside === width) {
      if (!whole) ranges.push({ start, end });
      break;
    }
    const k = splitPoint(width);
    if (inside <= k) {
      ranges.push({ start: start + k, end });
      end = start + k;
    } else {
      ranges.push({ start, end: start + k });
      start += k;
      whole = false;
    }
  }
  return ranges.reverse();
}
