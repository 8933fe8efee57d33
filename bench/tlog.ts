/**
 * npm run bench:tlog — the transparency log at 10^6 entries (BENCH_TLOG_ENTRIES), in process, with the
 * browser-compatible noble SHA-256 and Ed25519 the package uses:
 * - appends per second into the in-memory subtree store (leaf hash plus every completed subtree stored);
 * - inclusion and consistency proofs at the full size: generation and verification, µs per proof;
 * - a whole receipt's verification (checkpoint signature, entry, inclusion proof);
 * - a full audit: recompute the root from all entries and compare it to the signed checkpoint;
 * - anchoring (tlog-anchor.ts): gas per anchor and per entry at 1,000-entry batches, and the calldata, on
 *   Hardhat's in-process EVM, beside a bare transfer's gas.
 * Baseline: raw SHA-256 (noble) of the same bytes — the entries themselves for appends and the audit, one
 * 65-byte node input per proof element for the verifiers — printed beside each figure as a ratio.
 * node:crypto's SHA-256 of the entries is shown for reference (the browser has no synchronous equivalent).
 */
import { hash } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { CheckpointSigner, openCheckpoint } from '../packages/tlog/src/checkpoint';
import { bytesToHex, utf8ToBytes } from '../packages/tlog/src/encoding';
import { encodeEntry, ENTRY_TYPES, entrySubject } from '../packages/tlog/src/entry';
import { leafHash, nobleTreeHasher, sha256 } from '../packages/tlog/src/hashing';
import { MerkleLog, rootOfEntries } from '../packages/tlog/src/merkle-log';
import { nodeTreeHasher } from '../packages/tlog/src/sha256-node';
import { generateNoteKeys } from '../packages/tlog/src/note';
import { createReceipt, verifyReceipt } from '../packages/tlog/src/receipt';
import { verifyConsistency, verifyInclusion } from '../packages/tlog/src/verify';
import { anchoringTable, measureAnchoring } from './tlog-anchor';

const ENTRIES = Number(process.env.BENCH_TLOG_ENTRIES ?? 1_000_000);
const PROOFS = Number(process.env.BENCH_TLOG_PROOFS ?? 10_000);
const RECEIPTS = 200;
const ORIGIN = 'hasta.example/log';

/** Deterministic pseudo-random numbers (xorshift32), so every run measures the same log. */
let state = 0x9e3779b9;
function random(): number {
  state ^= state << 13;
  state ^= state >>> 17;
  state ^= state << 5;
  return (state >>> 0) / 2 ** 32;
}
const randomBelow = (n: number): number => Math.floor(random() * n);

/** Real-shaped entries (about 200 bytes of canonical JSON each), back to back in one buffer. */
function makeEntries(count: number): { bytes: Uint8Array; offsets: Uint32Array } {
  const secret = new Uint8Array(32).fill(7);
  const subjects = Array.from({ length: 10_000 }, (_, i) => entrySubject(secret, `user-${i}`));
  const commitment = new Uint8Array(32);
  const texts: Uint8Array[] = [];
  let total = 0;
  const start = Date.UTC(2025, 0, 1);
  for (let i = 0; i < count; i++) {
    for (let j = 0; j < 32; j++) commitment[j] = randomBelow(256);
    const text = utf8ToBytes(
      encodeEntry({
        v: 1,
        subject: subjects[randomBelow(subjects.length)]!,
        type: ENTRY_TYPES[randomBelow(ENTRY_TYPES.length)]!,
        time: new Date(start + Math.floor(i / 20) * 60_000).toISOString(),
        commitment: bytesToHex(commitment),
      }),
    );
    texts.push(text);
    total += text.length;
  }
  const bytes = new Uint8Array(total);
  const offsets = new Uint32Array(count + 1);
  texts.forEach((text, i) => {
    bytes.set(text, offsets[i]!);
    offsets[i + 1] = offsets[i]! + text.length;
  });
  return { bytes, offsets };
}

interface Timing {
  wall_ms: number;
  /** CPU time of this process: on a shared, loaded machine it is the steadier measure of the work done. */
  cpu_ms: number;
}

function time(work: () => void): Timing {
  const cpu = process.cpuUsage();
  const started = performance.now();
  work();
  const wall_ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { wall_ms, cpu_ms: (used.user + used.system) / 1000 };
}

const format = (n: number, digits = 0): string =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const load = (): string =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');

console.log(
  `building ${format(ENTRIES)} entries… (load average ${load()} on ${availableParallelism()} cores)`,
);
const { bytes, offsets } = makeEntries(ENTRIES);
const entry = (i: number): Uint8Array => bytes.subarray(offsets[i]!, offsets[i + 1]!);

// Warm-up, so the first figure does not pay for compiling the hash function.
for (let i = 0; i < Math.min(ENTRIES, 50_000); i++) sha256(entry(i));

// Baselines: raw SHA-256 of the entries, and of 65-byte node inputs (one per proof element).
const rawEntries = time(() => {
  for (let i = 0; i < ENTRIES; i++) sha256(entry(i));
});
const nodeInput = new Uint8Array(65);
const RAW_NODES = 200_000;
const rawNodes = time(() => {
  for (let i = 0; i < RAW_NODES; i++) {
    nodeInput[1] = i;
    sha256(nodeInput);
  }
});
const nodeCryptoEntries = time(() => {
  for (let i = 0; i < ENTRIES; i++) hash('sha256', entry(i), 'buffer');
});

// Appends, storing every completed subtree.
const log = new MerkleLog();
const appends = time(() => {
  for (let i = 0; i < ENTRIES; i++) log.append(entry(i));
});

const keys = generateNoteKeys(ORIGIN, new Uint8Array(32).fill(1));
const signer = new CheckpointSigner({ signer: keys.signerKey });
let checkpoint = '';
const signing = time(() => {
  checkpoint = signer.signLog(log);
});

// Inclusion proofs at the full size.
const indices = Array.from({ length: PROOFS }, () => randomBelow(ENTRIES));
let inclusionProofs: Uint8Array[][] = [];
const inclusionGenerate = time(() => {
  inclusionProofs = indices.map((index) => log.inclusionProof(index));
});
const leaves = indices.map((index) => leafHash(entry(index)));
const root = log.root();
let failures = 0;
const inclusionVerify = time(() => {
  for (let p = 0; p < PROOFS; p++) {
    if (!verifyInclusion(leaves[p]!, indices[p]!, ENTRIES, inclusionProofs[p]!, root)) failures++;
  }
});
const inclusionLength = inclusionProofs.reduce((sum, proof) => sum + proof.length, 0) / PROOFS;

// Consistency proofs from random older sizes to the full size.
const oldSizes = Array.from({ length: PROOFS }, () => 1 + randomBelow(ENTRIES - 1));
const oldRoots = oldSizes.map((size) => log.root(size));
let consistencyProofs: Uint8Array[][] = [];
const consistencyGenerate = time(() => {
  consistencyProofs = oldSizes.map((size) => log.consistencyProof(size));
});
const consistencyVerify = time(() => {
  for (let p = 0; p < PROOFS; p++) {
    if (!verifyConsistency(oldSizes[p]!, ENTRIES, consistencyProofs[p]!, oldRoots[p]!, root)) failures++;
  }
});
const consistencyLength = consistencyProofs.reduce((sum, proof) => sum + proof.length, 0) / PROOFS;

// Whole receipts: what the /verify page and hasta-verify do once per receipt.
const receipts = indices.slice(0, RECEIPTS).map((index) =>
  createReceipt({
    origin: ORIGIN,
    index,
    treeSize: ENTRIES,
    entry: new TextDecoder().decode(entry(index)),
    inclusionProof: log.inclusionProof(index),
    checkpoint,
  }),
);
// Warm-up: noble builds its Ed25519 tables on first use.
for (const receipt of receipts.slice(0, 10)) verifyReceipt(receipt, keys.verifierKey);
const receiptVerify = time(() => {
  for (const receipt of receipts) if (!verifyReceipt(receipt, keys.verifierKey).ok) failures++;
});

// Full audit: check the checkpoint's signature, recompute the root from every entry, compare. Once with
// noble (what a browser or any JS runtime does), once with node:crypto (an auditor running in Node).
function audit(hasher = nobleTreeHasher): Timing {
  return time(() => {
    const head = openCheckpoint(checkpoint, keys.verifierKey, ORIGIN);
    const recomputed = rootOfEntries(
      (function* () {
        for (let i = 0; i < ENTRIES; i++) yield entry(i);
      })(),
      hasher,
    );
    const matches =
      head.ok &&
      head.value.size === recomputed.size &&
      bytesToHex(head.value.root) === bytesToHex(recomputed.root);
    if (!matches) failures++;
  });
}
const auditNoble = audit();
const auditNode = audit(nodeTreeHasher);

// Anchoring, with the roots of this log at 1,000, 2,000, … entries.
const anchoring = await measureAnchoring((size) => log.root(Math.min(size, ENTRIES)));
if (!anchoring.recorded) failures++;

/**
 * One figure: wall-clock and CPU-time values, and its cost as a multiple of the raw SHA-256 of the same
 * bytes (CPU time against CPU time, so other load on the machine cancels out).
 */
function row(
  name: string,
  value: (t: Timing) => string,
  measured: Timing,
  baseline: Timing | null,
  what = '',
  target = '',
): string {
  const wall = value(measured);
  const cpu = value({ wall_ms: measured.cpu_ms, cpu_ms: measured.cpu_ms });
  const ratio = baseline === null ? '' : `x${(measured.cpu_ms / baseline.cpu_ms).toFixed(2)} ${what}`;
  return `${name.padEnd(36)} ${wall.padStart(12)} ${cpu.padStart(12)}   ${ratio.padEnd(34)} ${target}`;
}
const perSecond = (count: number) => (t: Timing) => `${format(count / (t.wall_ms / 1000))}/s`;
const microsEach = (count: number) => (t: Timing) => `${format((t.wall_ms * 1000) / count, 1)} µs`;
const seconds = (t: Timing) => `${format(t.wall_ms / 1000, 2)} s`;
/** The raw hashing a batch of proofs needs: one 65-byte node input per proof element. */
const rawProofHashing = (count: number, length: number): Timing => ({
  wall_ms: (rawNodes.wall_ms / RAW_NODES) * count * length,
  cpu_ms: (rawNodes.cpu_ms / RAW_NODES) * count * length,
});

console.log(
  [
    `entries: ${format(ENTRIES)} (${format(bytes.length / 1e6, 1)} MB of canonical JSON), ${format(PROOFS)} proofs of each kind`,
    `${'figure'.padEnd(36)} ${'wall clock'.padStart(12)} ${'CPU time'.padStart(12)}   ${'CPU cost ÷ raw SHA-256 of it'.padEnd(34)} target`,
    row('raw SHA-256 of the entries (noble)', perSecond(ENTRIES), rawEntries, null),
    row('raw SHA-256 of a 65-byte node', microsEach(RAW_NODES), rawNodes, null),
    row('raw SHA-256 of the entries (node)', perSecond(ENTRIES), nodeCryptoEntries, rawEntries, 'noble’s'),
    row('append, storing subtrees', perSecond(ENTRIES), appends, rawEntries, 'the entries', '≥ 10,000/s'),
    row(
      `inclusion verify (${format(inclusionLength, 1)} hashes)`,
      microsEach(PROOFS),
      inclusionVerify,
      rawProofHashing(PROOFS, inclusionLength),
      'one node per proof hash',
      '≤ 5,000 µs',
    ),
    row(
      'inclusion proof generation',
      microsEach(PROOFS),
      inclusionGenerate,
      rawProofHashing(PROOFS, inclusionLength),
      'one node per proof hash',
    ),
    row(
      `consistency verify (${format(consistencyLength, 1)} hashes)`,
      microsEach(PROOFS),
      consistencyVerify,
      rawProofHashing(PROOFS, consistencyLength),
      'one node per proof hash',
    ),
    row(
      'consistency proof generation',
      microsEach(PROOFS),
      consistencyGenerate,
      rawProofHashing(PROOFS, consistencyLength),
      'one node per proof hash',
    ),
    row(
      'receipt verify (Ed25519 + proof)',
      microsEach(RECEIPTS),
      receiptVerify,
      rawProofHashing(RECEIPTS, inclusionLength),
      'one node per proof hash',
    ),
    row('checkpoint signing (Ed25519)', microsEach(1), signing, null),
    row('full audit, noble', seconds, auditNoble, rawEntries, 'the entries (noble)', '≤ 10 s'),
    row(
      'full audit, node:crypto',
      seconds,
      auditNode,
      nodeCryptoEntries,
      'the entries (node:crypto)',
      '≤ 10 s',
    ),
    ...anchoringTable(anchoring),
    '',
    `load average at the end: ${load()}`,
    failures === 0 ? 'every proof, receipt, audit and anchor verified' : `${failures} VERIFICATIONS FAILED`,
  ].join('\n'),
);
if (failures > 0) process.exitCode = 1;
