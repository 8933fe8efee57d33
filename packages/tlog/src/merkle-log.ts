/**
 * The append-only Merkle log: appends entries, stores every complete subtree, and answers roots and proofs
 * for any size up to the current one (RFC 9162 §2.1). `MerkleLog` works on a synchronous store,
 * `AsyncMerkleLog` on a database; both share the same planning code, so they give identical proofs.
 */
import { EMPTY_ROOT, HASH_SIZE, leafHash, nobleTreeHasher, nodeHash, type TreeHasher } from './hashing';
import type { AsyncSubtreeStore, StoredNode, SubtreeStore } from './subtree-store';
import { MemorySubtreeStore } from './subtree-store';
import {
  assertSize,
  consistencyRanges,
  frontierNodes,
  inclusionRanges,
  rangeNodes,
  type LeafRange,
  type NodeId,
} from './tree-math';

function setBits(n: number): number {
  let count = 0;
  for (let rest = n; rest > 0; rest = Math.floor(rest / 2)) count += rest % 2;
  return count;
}

/**
 * The compact range [0, size): the roots of the complete subtrees that make up the tree, largest first
 * (one per set bit of size). It is all a writer needs to append, and all an auditor needs to recompute the
 * root from the entries.
 */
export class CompactRange {
  private count: number;
  private readonly hashes: Uint8Array[];

  /** `hashes` are the stored hashes of `frontierNodes(size)`, in that order. */
  constructor(
    size = 0,
    hashes: readonly Uint8Array[] = [],
    private readonly hasher: TreeHasher = nobleTreeHasher,
  ) {
    assertSize(size, 'tree size');
    if (hashes.length !== setBits(size)) {
      throw new RangeError(`a tree of ${size} leaves has ${setBits(size)} frontier nodes`);
    }
    this.count = size;
    this.hashes = [...hashes];
  }

  get size(): number {
    return this.count;
  }

  clone(): CompactRange {
    return new CompactRange(this.count, this.hashes, this.hasher);
  }

  /** Adds one leaf; `onNode` receives the leaf and every subtree it completes, lowest level first. */
  append(leaf: Uint8Array, onNode?: (node: StoredNode) => void): void {
    if (leaf.length !== HASH_SIZE) throw new RangeError(`a leaf hash has ${HASH_SIZE} bytes`);
    if (this.count >= Number.MAX_SAFE_INTEGER) throw new RangeError('the log is full');
    // A copy: the frontier must not change if the caller reuses its buffer.
    let hash: Uint8Array = leaf.slice();
    let level = 0;
    let index = this.count;
    onNode?.({ level, index, hash });
    // Each trailing 1-bit of the old size is a left sibling waiting for this leaf's subtree: at most 53.
    while (index % 2 === 1) {
      hash = this.hasher.node(this.hashes.pop()!, hash);
      level++;
      index = (index - 1) / 2;
      onNode?.({ level, index, hash });
    }
    this.hashes.push(hash);
    this.count++;
  }

  /** MTH of the whole range: the frontier folded from the right. */
  root(): Uint8Array {
    if (this.count === 0) return EMPTY_ROOT.slice();
    let hash = this.hashes[this.hashes.length - 1]!;
    for (let i = this.hashes.length - 2; i >= 0; i--) hash = this.hasher.node(this.hashes[i]!, hash);
    return hash.slice();
  }
}

/**
 * Recomputes the tree of the given entries from scratch, as an auditor does: O(n) time, O(log n) memory.
 * In Node, pass `nodeTreeHasher` from `sha256-node.ts` for speed; the result is the same.
 */
export function rootOfEntries(
  entries: Iterable<Uint8Array>,
  hasher: TreeHasher = nobleTreeHasher,
): { size: number; root: Uint8Array } {
  const range = new CompactRange(0, [], hasher);
  for (const entry of entries) range.append(hasher.leaf(entry));
  return { size: range.size, root: range.root() };
}

/** Which stored nodes a set of proof ranges needs, and how to turn them into the proof's hashes. */
export interface ProofPlan {
  /** Distinct subtrees to read, O(log n) of them. */
  nodes: NodeId[];
  /** Builds the proof from the hashes of `nodes`, given in the same order. */
  assemble(hashes: readonly (Uint8Array | undefined)[]): Uint8Array[];
}

export function planProof(ranges: readonly LeafRange[]): ProofPlan {
  const position = new Map<string, number>();
  const nodes: NodeId[] = [];
  const perRange = ranges.map((range) =>
    rangeNodes(range).map((id) => {
      const key = `${id.level}/${id.index}`;
      let at = position.get(key);
      if (at === undefined) {
        at = nodes.length;
        position.set(key, at);
        nodes.push(id);
      }
      return at;
    }),
  );
  return {
    nodes,
    assemble(hashes) {
      const read = (at: number): Uint8Array => {
        const hash = hashes[at];
        if (hash === undefined) {
          const id = nodes[at]!;
          throw new Error(`subtree (${id.level}, ${id.index}) is missing from the store`);
        }
        return hash;
      };
      // Ranges on the right edge share their tails (they all end at the tree size): fold each tail once.
      const tails = new Map<string, Uint8Array>();
      return ranges.map((range, r) => {
        const parts = perRange[r]!;
        let hash = read(parts[parts.length - 1]!);
        let start = range.end - 2 ** nodes[parts[parts.length - 1]!]!.level;
        for (let i = parts.length - 2; i >= 0; i--) {
          start -= 2 ** nodes[parts[i]!]!.level;
          const key = `${start}/${range.end}`;
          const known = tails.get(key);
          hash = known ?? nodeHash(read(parts[i]!), hash);
          if (known === undefined) tails.set(key, hash);
        }
        return hash.slice();
      });
    },
  };
}

function checkSizes(size: number, current: number): void {
  assertSize(size, 'tree size');
  if (size > current) throw new RangeError(`the log has ${current} entries, not ${size}`);
}

/** A log over a synchronous store (in memory by default). One writer at a time. */
export class MerkleLog {
  readonly store: SubtreeStore;
  private range: CompactRange;

  /** Opens a log of `size` entries whose subtrees are already in `store` (a new, empty log by default). */
  constructor(store: SubtreeStore = new MemorySubtreeStore(), size = 0) {
    this.store = store;
    const ids = frontierNodes(size);
    this.range = new CompactRange(
      size,
      checkRead(
        ids,
        ids.map((id) => store.get(id.level, id.index)),
      ),
    );
  }

  get size(): number {
    return this.range.size;
  }

  /** Appends one entry (its bytes become the leaf) and returns its index. */
  append(entry: Uint8Array): number {
    return this.appendLeafHash(leafHash(entry));
  }

  appendLeafHash(leaf: Uint8Array): number {
    const index = this.range.size;
    const next = this.range.clone();
    next.append(leaf, (node) => this.store.put(node.level, node.index, node.hash));
    this.range = next;
    return index;
  }

  /** The root of the tree of the first `size` entries. */
  root(size = this.size): Uint8Array {
    checkSizes(size, this.size);
    if (size === this.size) return this.range.root();
    if (size === 0) return EMPTY_ROOT.slice();
    return this.read(planProof([{ start: 0, end: size }]))[0]!;
  }

  /** The inclusion proof of entry `index` in the tree of `size` entries (RFC 9162 §2.1.3.1). */
  inclusionProof(index: number, size = this.size): Uint8Array[] {
    checkSizes(size, this.size);
    return this.read(planProof(inclusionRanges(index, size)));
  }

  /** The consistency proof from the tree of `first` entries to the tree of `second` (RFC 9162 §2.1.4.1). */
  consistencyProof(first: number, second = this.size): Uint8Array[] {
    checkSizes(second, this.size);
    return this.read(planProof(consistencyRanges(first, second)));
  }

  private read(plan: ProofPlan): Uint8Array[] {
    return plan.assemble(plan.nodes.map((id) => this.store.get(id.level, id.index)));
  }
}

function checkRead(ids: readonly NodeId[], hashes: readonly (Uint8Array | undefined)[]): Uint8Array[] {
  return ids.map((id, i) => {
    const hash = hashes[i];
    if (hash === undefined) throw new Error(`subtree (${id.level}, ${id.index}) is missing from the store`);
    return hash.slice();
  });
}

/**
 * A log over an asynchronous store. Appends are queued in order; each batch is written with one `putMany`
 * and becomes visible only once that write succeeds. Across processes, the caller keeps a single writer
 * (e.g. a database advisory lock) and opens the log at the size its entries table holds.
 */
export class AsyncMerkleLog {
  private range: CompactRange;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly store: AsyncSubtreeStore,
    range: CompactRange,
  ) {
    this.range = range;
  }

  static async open(store: AsyncSubtreeStore, size = 0): Promise<AsyncMerkleLog> {
    const ids = frontierNodes(size);
    const hashes = await store.getMany(ids);
    return new AsyncMerkleLog(store, new CompactRange(size, checkRead(ids, hashes)));
  }

  get size(): number {
    return this.range.size;
  }

  /** Appends the entries in order; resolves to the index of the first one. */
  append(entries: readonly Uint8Array[]): Promise<number> {
    return this.appendLeafHashes(entries.map((entry) => leafHash(entry)));
  }

  appendLeafHashes(leaves: readonly Uint8Array[]): Promise<number> {
    const run = this.queue.then(async () => {
      const first = this.range.size;
      const next = this.range.clone();
      const nodes: StoredNode[] = [];
      for (const leaf of leaves) next.append(leaf, (node) => nodes.push(node));
      await this.store.putMany(nodes);
      this.range = next;
      return first;
    });
    // A failed batch leaves the log as it was; later batches still run.
    this.queue = run.catch(() => undefined);
    return run;
  }

  async root(size = this.size): Promise<Uint8Array> {
    checkSizes(size, this.size);
    if (size === this.size) return this.range.root();
    if (size === 0) return EMPTY_ROOT.slice();
    return (await this.read(planProof([{ start: 0, end: size }])))[0]!;
  }

  inclusionProof(index: number, size = this.size): Promise<Uint8Array[]> {
    checkSizes(size, this.size);
    return this.read(planProof(inclusionRanges(index, size)));
  }

  consistencyProof(first: number, second = this.size): Promise<Uint8Array[]> {
    checkSizes(second, this.size);
    return this.read(planProof(consistencyRanges(first, second)));
  }

  private async read(plan: ProofPlan): Promise<Uint8Array[]> {
    if (plan.nodes.length === 0) return [];
    return plan.assemble(await this.store.getMany(plan.nodes));
  }
}
