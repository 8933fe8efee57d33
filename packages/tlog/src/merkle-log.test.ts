import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesToHex, utf8ToBytes } from './encoding';
import { EMPTY_ROOT, leafHash, nodeHash } from './hashing';
import { AsyncMerkleLog, MerkleLog, rootOfEntries } from './merkle-log';
import { MemorySubtreeStore, type AsyncSubtreeStore } from './subtree-store';
import type { NodeId } from './tree-math';
import { verifyConsistency, verifyInclusion } from './verify';

/**
 * RFC 9162 §2.1 written as its recursive definitions (MTH, PATH, SUBPROOF) over leaf ranges, independent of
 * the log's code; subtree hashes are memoised so the exhaustive runs stay quick.
 */
function referenceTree(entries: readonly Uint8Array[]) {
  const split = (n: number): number => {
    let k = 1;
    while (k * 2 < n) k *= 2;
    return k;
  };
  const memo = new Map<string, Uint8Array>();
  const mth = (start: number, end: number): Uint8Array => {
    const key = `${start}:${end}`;
    let hash = memo.get(key);
    if (hash === undefined) {
      if (end === start) hash = EMPTY_ROOT;
      else if (end - start === 1) hash = leafHash(entries[start]!);
      else {
        const k = split(end - start);
        hash = nodeHash(mth(start, start + k), mth(start + k, end));
      }
      memo.set(key, hash);
    }
    return hash;
  };
  const path = (m: number, start: number, end: number): Uint8Array[] => {
    if (end - start <= 1) return [];
    const k = split(end - start);
    return m < k
      ? [...path(m, start, start + k), mth(start + k, end)]
      : [...path(m - k, start + k, end), mth(start, start + k)];
  };
  const subproof = (m: number, start: number, end: number, whole: boolean): Uint8Array[] => {
    if (m === end - start) return whole ? [] : [mth(start, end)];
    const k = split(end - start);
    return m <= k
      ? [...subproof(m, start, start + k, whole), mth(start + k, end)]
      : [...subproof(m - k, start + k, end, false), mth(start, start + k)];
  };
  return {
    root: (n: number) => mth(0, n),
    inclusion: (index: number, n: number) => path(index, 0, n),
    consistency: (m: number, n: number) => subproof(m, 0, n, true),
  };
}

/** Proofs compared as one string: much cheaper than a deep equality of byte arrays in a loop. */
const hexList = (hashes: readonly Uint8Array[]): string => hashes.map(bytesToHex).join(',');

const entryOf = (i: number): Uint8Array => utf8ToBytes(`entry ${i}`);

describe('MerkleLog, exhaustively for every tree size 1..64', () => {
  const entries = Array.from({ length: 64 }, (_, i) => entryOf(i));
  const log = new MerkleLog();
  entries.forEach((entry) => log.append(entry));
  const reference = referenceTree(entries);
  const roots = Array.from({ length: 65 }, (_, n) => reference.root(n));

  it('gives the reference root for every size', () => {
    for (let n = 0; n <= 64; n++) expect(log.root(n)).toEqual(roots[n]);
  });

  it('gives the reference inclusion proof for every index, and it verifies', () => {
    for (let n = 1; n <= 64; n++) {
      for (let i = 0; i < n; i++) {
        const proof = log.inclusionProof(i, n);
        expect(hexList(proof)).toBe(hexList(reference.inclusion(i, n)));
        if (!verifyInclusion(leafHash(entries[i]!), i, n, proof, roots[n]!)) expect.fail(`${i} in ${n}`);
      }
    }
  });

  it('gives the reference consistency proof for every (m, n), and it verifies', () => {
    for (let n = 1; n <= 64; n++) {
      for (let m = 1; m <= n; m++) {
        const proof = log.consistencyProof(m, n);
        expect(hexList(proof)).toBe(hexList(reference.consistency(m, n)));
        if (!verifyConsistency(m, n, proof, roots[m]!, roots[n]!)) expect.fail(`${m} → ${n}`);
      }
    }
  });

  it('refuses each proof at a wrong index, a wrong size, or against the root of another size', () => {
    const accepted: string[] = [];
    for (let n = 2; n <= 64; n++) {
      for (let i = 0; i < n; i++) {
        const proof = log.inclusionProof(i, n);
        const leaf = leafHash(entries[i]!);
        if (verifyInclusion(leaf, (i + 1) % n, n, proof, roots[n]!))
          accepted.push(`index ${i + 1} for ${i}/${n}`);
        if (verifyInclusion(leaf, i, n + 1, proof, roots[n + 1] ?? roots[n]!))
          accepted.push(`size+1 ${i}/${n}`);
        if (verifyInclusion(leafHash(entries[(i + 1) % n]!), i, n, proof, roots[n]!))
          accepted.push(`leaf ${i}/${n}`);
      }
      for (let m = 1; m < n; m++) {
        const proof = log.consistencyProof(m, n);
        if (verifyConsistency(m, n, proof, roots[m - 1]!, roots[n]!)) accepted.push(`old root ${m}/${n}`);
        if (verifyConsistency(m, n, proof, roots[m]!, roots[n - 1]!)) accepted.push(`new root ${m}/${n}`);
      }
    }
    expect(accepted).toEqual([]);
  });

  it('reads only O(log n) stored nodes per proof', () => {
    const reads: NodeId[] = [];
    const store = new MemorySubtreeStore();
    const counting = {
      get: (level: number, index: number) => {
        reads.push({ level, index });
        return store.get(level, index);
      },
      put: store.put.bind(store),
    };
    const big = new MerkleLog(counting);
    for (let i = 0; i < 1000; i++) big.append(entryOf(i));
    let worst = 0;
    for (let i = 0; i < 1000; i += 7) {
      reads.length = 0;
      big.inclusionProof(i, 999);
      worst = Math.max(worst, reads.length);
      reads.length = 0;
      big.consistencyProof(i + 1, 999);
      worst = Math.max(worst, reads.length);
    }
    // ⌈log2 1000⌉ = 10 levels; proofs on the ragged right edge read at most twice that.
    expect(worst).toBeLessThanOrEqual(20);
  });
});

describe('MerkleLog', () => {
  it('matches the reference and verifies for random logs (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 40 }), { minLength: 1, maxLength: 200 }),
        fc.nat(),
        fc.nat(),
        (entries, a, b) => {
          const log = new MerkleLog();
          entries.forEach((entry) => log.append(entry));
          const n = 1 + (a % entries.length);
          const i = b % n;
          const m = 1 + (b % n);
          const reference = referenceTree(entries);
          const root = reference.root(n);
          expect(log.root(n)).toEqual(root);
          expect(verifyInclusion(leafHash(entries[i]!), i, n, log.inclusionProof(i, n), root)).toBe(true);
          const oldRoot = reference.root(m);
          expect(verifyConsistency(m, n, log.consistencyProof(m, n), oldRoot, root)).toBe(true);
        },
      ),
    );
  });

  it('refuses any proof with one flipped bit (property)', () => {
    const entries = Array.from({ length: 300 }, (_, i) => entryOf(i));
    const log = new MerkleLog();
    entries.forEach((entry) => log.append(entry));
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 300 }), fc.nat(), fc.nat(), fc.nat(255), (n, a, which, bit) => {
        const i = a % n;
        const proof = log.inclusionProof(i, n);
        const flipped = proof.map((hash) => hash.slice());
        flipped[which % proof.length]![bit % 32]! ^= 1 << (bit % 8);
        expect(verifyInclusion(leafHash(entries[i]!), i, n, flipped, log.root(n))).toBe(false);
        const m = 1 + (a % (n - 1));
        const consistency = log.consistencyProof(m, n);
        const bad = consistency.map((hash) => hash.slice());
        bad[which % bad.length]![bit % 32]! ^= 1 << (bit % 8);
        expect(verifyConsistency(m, n, bad, log.root(m), log.root(n))).toBe(false);
      }),
    );
  });

  it('reopens from its store at a known size and carries on identically', () => {
    const store = new MemorySubtreeStore();
    const first = new MerkleLog(store);
    for (let i = 0; i < 37; i++) first.append(entryOf(i));
    const reopened = new MerkleLog(store, 37);
    for (let i = 37; i < 50; i++) reopened.append(entryOf(i));
    expect(reopened.root()).toEqual(referenceTree(Array.from({ length: 50 }, (_, i) => entryOf(i))).root(50));
    expect(() => new MerkleLog(new MemorySubtreeStore(), 5)).toThrow(/missing from the store/);
  });

  it('refuses sizes beyond the log, indices beyond the size, and a store that would be rewritten', () => {
    const log = new MerkleLog();
    for (let i = 0; i < 5; i++) log.append(entryOf(i));
    expect(() => log.root(6)).toThrow(RangeError);
    expect(() => log.inclusionProof(5, 5)).toThrow(RangeError);
    expect(() => log.inclusionProof(-1, 5)).toThrow(RangeError);
    expect(() => log.consistencyProof(4, 6)).toThrow(RangeError);
    expect(() => log.consistencyProof(5, 4)).toThrow(RangeError);
    expect(() => log.store.put(0, 0, leafHash(entryOf(99)))).toThrow(/another hash/);
    expect(() => log.appendLeafHash(new Uint8Array(31))).toThrow(RangeError);
  });

  it('recomputes the same root from the entries alone (the audit)', () => {
    const entries = Array.from({ length: 100 }, (_, i) => entryOf(i));
    const log = new MerkleLog();
    entries.forEach((entry) => log.append(entry));
    expect(rootOfEntries(entries)).toEqual({ size: 100, root: log.root() });
    expect(rootOfEntries([])).toEqual({ size: 0, root: EMPTY_ROOT });
  });
});

describe('AsyncMerkleLog', () => {
  it('gives the same roots and proofs as the synchronous log, reading each proof in one call', async () => {
    const store = new MemorySubtreeStore();
    let calls = 0;
    const counting: AsyncSubtreeStore = {
      getMany: (ids) => {
        calls++;
        return store.getMany(ids);
      },
      putMany: (nodes) => store.putMany(nodes),
    };
    const log = await AsyncMerkleLog.open(counting);
    const sync = new MerkleLog();
    const entries = Array.from({ length: 45 }, (_, i) => entryOf(i));
    expect(await log.append(entries.slice(0, 20))).toBe(0);
    expect(await log.append(entries.slice(20))).toBe(20);
    entries.forEach((entry) => sync.append(entry));
    expect(log.size).toBe(45);
    for (let n = 1; n <= 45; n += 4) {
      expect(await log.root(n)).toEqual(sync.root(n));
      for (let i = 0; i < n; i += 3) {
        calls = 0;
        expect(await log.inclusionProof(i, n)).toEqual(sync.inclusionProof(i, n));
        expect(calls).toBeLessThanOrEqual(1);
        expect(await log.consistencyProof(1 + i, n)).toEqual(sync.consistencyProof(1 + i, n));
      }
    }
    const reopened = await AsyncMerkleLog.open(store, 45);
    expect(await reopened.root()).toEqual(sync.root());
  });

  it('keeps its size when a batch fails to store, and later batches still go in', async () => {
    const store = new MemorySubtreeStore();
    let failNext = false;
    const flaky: AsyncSubtreeStore = {
      getMany: (ids) => store.getMany(ids),
      putMany: (nodes) => (failNext ? Promise.reject(new Error('disk full')) : store.putMany(nodes)),
    };
    const log = await AsyncMerkleLog.open(flaky);
    await log.append([entryOf(0)]);
    failNext = true;
    await expect(log.append([entryOf(1)])).rejects.toThrow('disk full');
    failNext = false;
    expect(log.size).toBe(1);
    const [a, b] = await Promise.all([log.append([entryOf(1)]), log.append([entryOf(2)])]);
    expect([a, b]).toEqual([1, 2]);
    expect(await log.root()).toEqual(referenceTree([0, 1, 2].map(entryOf)).root(3));
  });
});
