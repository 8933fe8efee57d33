/**
 * Where a log keeps the hash of every complete subtree (level, index). With all of them stored, any root,
 * inclusion proof or consistency proof for any past size reads O(log n) hashes and never an entry.
 *
 * Two shapes: a synchronous one (the in-memory store below, tests, the benchmark) and an asynchronous one
 * for a database. A SQL table `(level int, index bigint, hash bytea, primary key (level, index))` implements
 * the asynchronous one with one `SELECT … WHERE (level, index) IN (…)` per proof and one multi-row INSERT
 * per append batch. Stored nodes never change: a store must refuse to overwrite a node with another hash.
 */
import { equalBytes } from './encoding';
import { HASH_SIZE } from './hashing';
import type { NodeId } from './tree-math';

export interface StoredNode extends NodeId {
  hash: Uint8Array;
}

export interface SubtreeStore {
  /** The hash of the complete subtree (level, index), or undefined when it is not stored. */
  get(level: number, index: number): Uint8Array | undefined;
  /** Stores a complete subtree's hash. Storing the same hash again is harmless; another hash is refused. */
  put(level: number, index: number, hash: Uint8Array): void;
}

export interface AsyncSubtreeStore {
  /** The hashes of the given subtrees, in the same order; undefined where one is not stored. */
  getMany(ids: readonly NodeId[]): Promise<readonly (Uint8Array | undefined)[]>;
  /** Stores the nodes of one append batch, all or none (one transaction). */
  putMany(nodes: readonly StoredNode[]): Promise<void>;
}

interface Level {
  bytes: Uint8Array;
  count: number;
}

const INITIAL_CAPACITY = 1024;

/**
 * Keeps each level's hashes back to back in one growing buffer (64 MB for a million entries), instead of a
 * million small objects. Nodes arrive in order within a level, as a log appends them.
 */
export class MemorySubtreeStore implements SubtreeStore, AsyncSubtreeStore {
  private readonly levels: Level[] = [];

  /** Read-only view into the store: callers copy before they hand a hash out. */
  get(level: number, index: number): Uint8Array | undefined {
    const row = this.levels[level];
    if (row === undefined || !Number.isInteger(index) || index < 0 || index >= row.count) return undefined;
    return row.bytes.subarray(index * HASH_SIZE, (index + 1) * HASH_SIZE);
  }

  put(level: number, index: number, hash: Uint8Array): void {
    if (hash.length !== HASH_SIZE) throw new RangeError(`a subtree hash has ${HASH_SIZE} bytes`);
    if (!Number.isInteger(level) || level < 0 || level > 64) throw new RangeError(`bad level ${level}`);
    while (this.levels.length <= level) {
      this.levels.push({ bytes: new Uint8Array(INITIAL_CAPACITY * HASH_SIZE), count: 0 });
    }
    const row = this.levels[level]!;
    if (index < row.count) {
      if (!equalBytes(this.get(level, index)!, hash)) {
        throw new Error(`subtree (${level}, ${index}) is already stored with another hash`);
      }
      return;
    }
    if (index !== row.count) {
      throw new Error(`subtree (${level}, ${index}) stored out of order: level ${level} has ${row.count}`);
    }
    if ((index + 1) * HASH_SIZE > row.bytes.length) {
      const grown = new Uint8Array(row.bytes.length * 2);
      grown.set(row.bytes);
      row.bytes = grown;
    }
    row.bytes.set(hash, index * HASH_SIZE);
    row.count++;
  }

  getMany(ids: readonly NodeId[]): Promise<readonly (Uint8Array | undefined)[]> {
    return Promise.resolve(ids.map((id) => this.get(id.level, id.index)?.slice()));
  }

  putMany(nodes: readonly StoredNode[]): Promise<void> {
    for (const node of nodes) this.put(node.level, node.index, node.hash);
    return Promise.resolve();
  }
}
