import { describe, expect, it } from 'vitest';
import { hexToBytes, utf8ToBytes } from './encoding';
import {
  CONSISTENCY_EDGE_CASES,
  CONSISTENCY_PROOFS,
  INCLUSION_PROOFS,
  LEAF_INPUTS_HEX,
  NODE_HASHES_HEX,
  ROOT_HASHES_HEX,
  SOME_HASH_HEX,
} from './fixtures/transparency-dev-merkle';
import { EMPTY_ROOT, leafHash } from './hashing';
import { MerkleLog, rootOfEntries } from './merkle-log';
import { nodeTreeHasher } from './sha256-node';
import { verifyConsistency, verifyInclusion } from './verify';

const hex = (text: string): Uint8Array => hexToBytes(text)!;
const leaves = LEAF_INPUTS_HEX.map(hex);
const roots = ROOT_HASHES_HEX.map(hex);
const someHash = hex(SOME_HASH_HEX);

interface InclusionProbe {
  index: number;
  size: number;
  root: Uint8Array;
  leaf: Uint8Array;
  proof: Uint8Array[];
  desc: string;
}

/** corruptInclusionProof of transparency-dev/merkle proof/verify_test.go. */
function corruptInclusion(
  index: number,
  size: number,
  proof: Uint8Array[],
  root: Uint8Array,
  leaf: Uint8Array,
) {
  const probes: InclusionProbe[] = [
    { index: index - 1, size, root, leaf, proof, desc: 'leafIndex - 1' },
    { index: index + 1, size, root, leaf, proof, desc: 'leafIndex + 1' },
    { index: index ^ 2, size, root, leaf, proof, desc: 'leafIndex ^ 2' },
    { index, size: size * 2, root, leaf, proof, desc: 'treeSize * 2' },
    { index, size: Math.floor(size / 2), root, leaf, proof, desc: 'treeSize / 2' },
    { index, size, root, leaf: utf8ToBytes('WrongLeaf'), proof, desc: 'wrong leaf' },
    { index, size, root: EMPTY_ROOT, leaf, proof, desc: 'empty root' },
    { index, size, root: someHash, leaf, proof, desc: 'random root' },
    { index, size, root, leaf, proof: [...proof, new Uint8Array(0)], desc: 'trailing garbage' },
    { index, size, root, leaf, proof: [...proof, root], desc: 'trailing root' },
    { index, size, root, leaf, proof: [new Uint8Array(0), ...proof], desc: 'preceding garbage' },
    { index, size, root, leaf, proof: [root, ...proof], desc: 'preceding root' },
  ];
  proof.forEach((_, i) => {
    const wrong = proof.map((hash) => hash.slice());
    wrong[i]![0]! ^= 8;
    probes.push({ index, size, root, leaf, proof: wrong, desc: `modified proof[${i}] bit 3` });
  });
  if (proof.length > 0)
    probes.push({ index, size, root, leaf, proof: proof.slice(0, -1), desc: 'removed component' });
  if (proof.length > 1) {
    probes.push({
      index,
      size,
      root,
      leaf,
      proof: [proof[0]!, someHash, ...proof.slice(1)],
      desc: 'inserted component',
    });
  }
  return probes;
}

/** corruptConsistencyProof of the same file. */
function corruptConsistency(
  size1: number,
  size2: number,
  root1: Uint8Array,
  root2: Uint8Array,
  proof: Uint8Array[],
) {
  const wrongRoot = utf8ToBytes('WrongRoot');
  const probes = [
    { size1: size1 - 1, size2, root1, root2, proof, desc: 'size1 - 1' },
    { size1: size1 + 1, size2, root1, root2, proof, desc: 'size1 + 1' },
    { size1: size1 ^ 2, size2, root1, root2, proof, desc: 'size1 ^ 2' },
    { size1, size2: size2 * 2, root1, root2, proof, desc: 'size2 * 2' },
    { size1, size2: Math.floor(size2 / 2), root1, root2, proof, desc: 'size2 / 2' },
    { size1, size2, root1: wrongRoot, root2, proof, desc: 'wrong root1' },
    { size1, size2, root1, root2: wrongRoot, proof, desc: 'wrong root2' },
    { size1, size2, root1: root2, root2: root1, proof, desc: 'swapped roots' },
    { size1, size2, root1, root2, proof: [], desc: 'empty proof' },
    { size1, size2, root1, root2, proof: [...proof, new Uint8Array(0)], desc: 'trailing garbage' },
    { size1, size2, root1, root2, proof: [...proof, root1], desc: 'trailing root1' },
    { size1, size2, root1, root2, proof: [...proof, root2], desc: 'trailing root2' },
    { size1, size2, root1, root2, proof: [new Uint8Array(0), ...proof], desc: 'preceding garbage' },
    { size1, size2, root1, root2, proof: [root1, ...proof], desc: 'preceding root1' },
    { size1, size2, root1, root2, proof: [root2, ...proof], desc: 'preceding root2' },
    { size1, size2, root1, root2, proof: [proof[0]!, ...proof], desc: 'preceding proof[0]' },
  ];
  if (proof.length > 0) {
    probes.push({ size1, size2, root1, root2, proof: proof.slice(0, -1), desc: 'truncated proof' });
  }
  proof.forEach((_, i) => {
    const wrong = proof.map((hash) => hash.slice());
    wrong[i]![0]! ^= 16;
    probes.push({ size1, size2, root1, root2, proof: wrong, desc: `modified proof[${i}] bit 4` });
  });
  return probes;
}

describe('transparency-dev/merkle vectors', () => {
  it('computes every root and every complete subtree of the reference tree', () => {
    const log = new MerkleLog();
    expect(log.root()).toEqual(roots[0]);
    leaves.forEach((leaf, i) => {
      log.append(leaf);
      expect(log.root(), `root of size ${i + 1}`).toEqual(roots[i + 1]);
    });
    for (let size = 0; size <= 8; size++) expect(log.root(size)).toEqual(roots[size]);
    NODE_HASHES_HEX.forEach((level, l) =>
      level.forEach((node, i) => expect(log.store.get(l, i), `node (${l}, ${i})`).toEqual(hex(node))),
    );
  });

  it('recomputes every root from the entries alone, with noble and with node:crypto', () => {
    for (let size = 0; size <= 8; size++) {
      expect(rootOfEntries(leaves.slice(0, size)).root).toEqual(roots[size]);
      expect(rootOfEntries(leaves.slice(0, size), nodeTreeHasher).root).toEqual(roots[size]);
    }
  });

  it.each(INCLUSION_PROOFS.slice(1))('verifies and generates inclusion proof %#', ({ leaf, size, proof }) => {
    const hashes = proof.map(hex);
    const leafHashValue = leafHash(leaves[leaf - 1]!);
    expect(verifyInclusion(leafHashValue, leaf - 1, size, hashes, roots[size]!)).toBe(true);
    const log = new MerkleLog();
    leaves.forEach((entry) => log.append(entry));
    expect(log.inclusionProof(leaf - 1, size)).toEqual(hashes);
    const accepted = corruptInclusion(leaf - 1, size, hashes, roots[size]!, leafHashValue).filter((probe) =>
      verifyInclusion(probe.leaf, probe.index, probe.size, probe.proof, probe.root),
    );
    expect(accepted.map((probe) => probe.desc)).toEqual([]);
  });

  it('refuses the invalid first row and the probes of TestVerifyInclusion', () => {
    const { leaf, size, proof } = INCLUSION_PROOFS[0]!;
    expect(verifyInclusion(someHash, leaf, size, proof.map(hex), EMPTY_ROOT)).toBe(false);
    for (const [index, treeSize] of [
      [0, 0],
      [0, 1],
      [1, 0],
      [2, 1],
    ] as const) {
      expect(verifyInclusion(someHash, index, treeSize, [], new Uint8Array(0))).toBe(false);
      expect(verifyInclusion(new Uint8Array(0), index, treeSize, [], EMPTY_ROOT)).toBe(false);
      expect(verifyInclusion(someHash, index, treeSize, [], EMPTY_ROOT)).toBe(false);
    }
  });

  it('handles the single-entry tree as TestVerifyInclusionSingleEntry does', () => {
    const hash = leafHash(utf8ToBytes('data'));
    const empty = new Uint8Array(0);
    expect(verifyInclusion(hash, 0, 1, [], hash)).toBe(true);
    expect(verifyInclusion(empty, 0, 1, [], hash)).toBe(false);
    expect(verifyInclusion(hash, 0, 1, [], empty)).toBe(false);
    expect(verifyInclusion(empty, 0, 1, [], empty)).toBe(false);
  });

  it.each(CONSISTENCY_PROOFS)('verifies and generates consistency proof %#', ({ size1, size2, proof }) => {
    const hashes = proof.map(hex);
    expect(verifyConsistency(size1, size2, hashes, roots[size1]!, roots[size2]!)).toBe(true);
    const log = new MerkleLog();
    leaves.forEach((entry) => log.append(entry));
    expect(log.consistencyProof(size1, size2)).toEqual(hashes);
    if (hashes.length === 0) return;
    const accepted = corruptConsistency(size1, size2, roots[size1]!, roots[size2]!, hashes).filter((probe) =>
      verifyConsistency(probe.size1, probe.size2, probe.proof, probe.root1, probe.root2),
    );
    expect(accepted.map((probe) => probe.desc)).toEqual([]);
  });

  it.each(CONSISTENCY_EDGE_CASES)(
    'edge case $size1 → $size2 ($root1 / $root2, proof $proof): refused = $wantErr',
    ({ size1, size2, root1, root2, proof, wantErr }) => {
      const root = (text: string) => (text === 'empty' ? EMPTY_ROOT : utf8ToBytes(text));
      const hashes = proof === 'none' ? [] : [EMPTY_ROOT];
      expect(verifyConsistency(size1, size2, hashes, root(root1), root(root2))).toBe(!wantErr);
    },
  );
});
