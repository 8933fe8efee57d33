import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CheckpointSigner, signCheckpoint } from './checkpoint';
import { bytesToBase64, bytesToHex, utf8ToBytes } from './encoding';
import { createEntry, encodeEntry, ENTRY_TYPES } from './entry';
import { MerkleLog } from './merkle-log';
import { generateNoteKeys, parseSignerKey } from './note';
import { createReceipt, verifyReceipt, type Receipt, type ReceiptAnchor } from './receipt';

const ORIGIN = 'hasta.example/log';
const keys = generateNoteKeys(ORIGIN, new Uint8Array(32).fill(1));
const otherKeys = generateNoteKeys(ORIGIN, new Uint8Array(32).fill(2));
const secret = new Uint8Array(32).fill(9);

function buildLog(size: number): { log: MerkleLog; entries: string[] } {
  const log = new MerkleLog();
  const entries: string[] = [];
  for (let i = 0; i < size; i++) {
    const entry = encodeEntry(
      createEntry({
        serverSecret: secret,
        userId: `user-${i % 7}`,
        type: ENTRY_TYPES[i % ENTRY_TYPES.length]!,
        at: new Date(Date.UTC(2025, 0, 31, 9, i)),
        record: { n: i },
        salt: new Uint8Array(32).fill(i),
      }),
    );
    entries.push(entry);
    log.append(utf8ToBytes(entry));
  }
  return { log, entries };
}

const { log, entries } = buildLog(50);
const signer = new CheckpointSigner({ signer: keys.signerKey });
const checkpoint40 = signer.sign({ size: 40, root: log.root(40) });
const checkpoint50 = signer.sign({ size: 50, root: log.root(50) }, log.consistencyProof(40, 50));

const anchorAt = (size: number, extra: Partial<ReceiptAnchor> = {}): ReceiptAnchor => ({
  chain: 'base-sepolia',
  chain_id: 84532,
  contract: `0x${'12'.repeat(20)}`,
  tx_hash: `0x${'ab'.repeat(32)}`,
  block_number: 123456,
  tree_size: size,
  root: `0x${bytesToHex(log.root(size))}`,
  ...extra,
});

function receiptFor(index: number, size = 40, anchor: ReceiptAnchor | null = null): Receipt {
  return createReceipt({
    origin: ORIGIN,
    index,
    treeSize: size,
    entry: entries[index]!,
    inclusionProof: log.inclusionProof(index, size),
    checkpoint: size === 40 ? checkpoint40 : checkpoint50,
    anchor,
    verifierKey: keys.verifierKey,
  });
}

const receiptInput = (index: number) => ({
  origin: ORIGIN,
  index,
  treeSize: 40,
  entry: entries[index]!,
  inclusionProof: log.inclusionProof(index, 40),
  checkpoint: checkpoint40,
});

const reasonOf = (receipt: unknown, key = keys.verifierKey): string => {
  const result = verifyReceipt(receipt, key);
  return result.ok ? 'ok' : result.reason;
};

describe('verifyReceipt', () => {
  it('accepts the receipt of every entry, after a JSON round trip', () => {
    for (let index = 0; index < 40; index++) {
      const result = verifyReceipt(JSON.parse(JSON.stringify(receiptFor(index))), keys.verifierKey);
      expect(result.ok, `entry ${index}`).toBe(true);
      if (result.ok) {
        expect(encodeEntry(result.entry)).toBe(entries[index]);
        expect(result.checkpoint.size).toBe(40);
        expect(result.anchor).toEqual({ kind: 'none' });
      }
    }
  });

  it('refuses an altered entry, proof element, index or size', () => {
    const receipt = receiptFor(13);
    const otherEntry = { ...receipt, entry: entries[14]! };
    expect(reasonOf(otherEntry)).toBe('inclusion proof does not lead to the checkpoint root');
    const proof = [...receipt.inclusion_proof];
    const flipped = utf8ToBytes('x'.repeat(32));
    proof[2] = bytesToBase64(flipped);
    expect(reasonOf({ ...receipt, inclusion_proof: proof })).toBe(
      'inclusion proof does not lead to the checkpoint root',
    );
    expect(reasonOf({ ...receipt, inclusion_proof: receipt.inclusion_proof.slice(1) })).toMatch(
      /inclusion proof/,
    );
    expect(reasonOf({ ...receipt, index: 12 })).toBe('inclusion proof does not lead to the checkpoint root');
    expect(reasonOf({ ...receipt, index: 40 })).toBe('entry 40 is not in a tree of 40 entries');
    expect(reasonOf({ ...receipt, tree_size: 41 })).toBe(
      'checkpoint is for tree size 40, the receipt for 41',
    );
    expect(reasonOf({ ...receipt, origin: 'other.example/log' })).toMatch(
      /does not match the receipt origin/,
    );
    expect(reasonOf({ ...receipt, inclusion_proof: ['not base64!'] })).toBe(
      'inclusion proof has a malformed hash',
    );
  });

  it('refuses a forked checkpoint with another root at the same size', () => {
    // The log's own key signs a second tree of 40 entries whose last entry differs.
    const fork = new MerkleLog();
    entries.slice(0, 39).forEach((entry) => fork.append(utf8ToBytes(entry)));
    fork.append(utf8ToBytes('forged'));
    const forged = signCheckpoint(
      { origin: ORIGIN, size: 40, root: fork.root(), extensions: [] },
      parseSignerKey(keys.signerKey),
    );
    expect(reasonOf({ ...receiptFor(5), checkpoint: forged })).toBe(
      'inclusion proof does not lead to the checkpoint root',
    );
  });

  it('refuses a bad signature and a checkpoint signed by another key', () => {
    const receipt = receiptFor(3);
    const lines = receipt.checkpoint.split('\n');
    const signatureLine = lines[lines.length - 2]!;
    const tampered =
      signatureLine.slice(0, -10) + (signatureLine.at(-10) === 'A' ? 'B' : 'A') + signatureLine.slice(-9);
    expect(reasonOf({ ...receipt, checkpoint: receipt.checkpoint.replace(signatureLine, tampered) })).toMatch(
      /^checkpoint signature: (invalid signature|malformed)/,
    );
    expect(reasonOf(receipt, otherKeys.verifierKey)).toBe(`checkpoint is not signed by key ${ORIGIN}`);
    const otherSigned = signCheckpoint(
      { origin: ORIGIN, size: 40, root: log.root(40), extensions: [] },
      parseSignerKey(otherKeys.signerKey),
    );
    expect(reasonOf({ ...receipt, checkpoint: otherSigned })).toBe(
      `checkpoint is not signed by key ${ORIGIN}`,
    );
    expect(reasonOf(receipt, 'garbage')).toBe('malformed verifier key');
  });

  it('refuses malformed receipts with the field at fault', () => {
    expect(reasonOf(null)).toBe('receipt is not an object');
    expect(reasonOf({ ...receiptFor(1), index: '1' })).toBe('receipt index is not a whole number');
    expect(reasonOf({ ...receiptFor(1), index: 1.5 })).toBe('receipt index is not a whole number');
    expect(reasonOf({ ...receiptFor(1), inclusion_proof: 'x' })).toMatch(/inclusion_proof/);
    expect(reasonOf({ ...receiptFor(1), entry: '{"v":1}' })).toBe('entry has missing or unknown fields');
    expect(reasonOf({ ...receiptFor(1), anchor: { chain: 'x' } })).toMatch(/^anchor /);
  });

  it('refuses any receipt with one changed character (property)', () => {
    const receipt = receiptFor(21);
    const fields = ['entry', 'checkpoint', 'proof'] as const;
    fc.assert(
      fc.property(fc.constantFrom(...fields), fc.nat(), fc.nat(), (field, at, by) => {
        const change = (text: string): string => {
          const i = at % text.length;
          const code = text.charCodeAt(i);
          const next = String.fromCharCode(
            code === 0x2014 ? 0x2013 : 0x21 + ((code - 0x21 + 1 + (by % 90)) % 94),
          );
          return text.slice(0, i) + next + text.slice(i + 1);
        };
        const changed: Receipt =
          field === 'entry'
            ? { ...receipt, entry: change(receipt.entry) }
            : field === 'checkpoint'
              ? { ...receipt, checkpoint: change(receipt.checkpoint) }
              : {
                  ...receipt,
                  inclusion_proof: receipt.inclusion_proof.map((p, i) => (i === at % 6 ? change(p) : p)),
                };
        fc.pre(JSON.stringify(changed) !== JSON.stringify(receipt));
        expect(verifyReceipt(changed, keys.verifierKey).ok).toBe(false);
      }),
    );
  });
});

describe('verifyReceipt with an anchor', () => {
  it('returns the on-chain check when the anchor is the checkpoint itself', () => {
    const result = verifyReceipt(receiptFor(7, 40, anchorAt(40)), keys.verifierKey);
    expect(result).toMatchObject({
      ok: true,
      anchor: {
        kind: 'check-on-chain',
        chain_id: 84532,
        tree_size: 40,
        root: `0x${bytesToHex(log.root(40))}`,
      },
    });
  });

  it('links an anchor at another size through its consistency proof, in either direction', () => {
    const older = anchorAt(30, { consistency_proof: log.consistencyProof(30, 40).map(bytesToBase64) });
    expect(verifyReceipt(receiptFor(7, 40, older), keys.verifierKey)).toMatchObject({
      ok: true,
      anchor: { kind: 'check-on-chain', tree_size: 30 },
    });
    const newer = anchorAt(50, { consistency_proof: log.consistencyProof(40, 50).map(bytesToBase64) });
    expect(verifyReceipt(receiptFor(7, 40, newer), keys.verifierKey)).toMatchObject({
      ok: true,
      anchor: { kind: 'check-on-chain', tree_size: 50 },
    });
  });

  it('says when the anchor predates the entry', () => {
    expect(verifyReceipt(receiptFor(35, 40, anchorAt(30)), keys.verifierKey)).toMatchObject({
      ok: true,
      anchor: { kind: 'before-entry', tree_size: 30 },
    });
  });

  it('repeats what the receipt states about anchoring, and refuses a statement its anchor contradicts', () => {
    const stated = (status: 'pending' | 'not-anchored') =>
      createReceipt({ ...receiptInput(3), anchorStatus: status });
    for (const status of ['pending', 'not-anchored'] as const) {
      const receipt = JSON.parse(JSON.stringify(stated(status))) as Receipt;
      expect(receipt).toMatchObject({ anchor: null, anchor_status: status });
      expect(verifyReceipt(receipt, keys.verifierKey)).toMatchObject({
        ok: true,
        anchor: { kind: 'none', status },
      });
    }
    // Without a statement (older receipts), nothing is claimed either way.
    expect(receiptFor(3).anchor_status).toBeUndefined();
    expect(verifyReceipt(receiptFor(3), keys.verifierKey)).toMatchObject({
      ok: true,
      anchor: { kind: 'none' },
    });
    // An anchor makes the receipt "anchored", whatever else was asked.
    const anchored = createReceipt({
      ...receiptInput(7),
      anchor: anchorAt(40),
      anchorStatus: 'not-anchored',
    });
    expect(anchored.anchor_status).toBe('anchored');

    expect(reasonOf({ ...stated('pending'), anchor_status: 'anchored' })).toBe(
      'receipt anchor_status is anchored but it has no anchor',
    );
    expect(reasonOf({ ...anchored, anchor_status: 'not-anchored' })).toBe(
      'receipt anchor_status is not-anchored but it has anchor',
    );
    expect(reasonOf({ ...stated('pending'), anchor_status: 'on-chain' })).toBe(
      'receipt anchor_status is unknown',
    );
  });

  it('refuses an anchor that cannot be tied to the signed root', () => {
    const wrongRoot = anchorAt(40, { root: `0x${bytesToHex(log.root(39))}` });
    expect(reasonOf(receiptFor(7, 40, wrongRoot))).toBe(
      'anchored root differs from the checkpoint root at the same tree size',
    );
    expect(reasonOf(receiptFor(7, 40, anchorAt(30)))).toMatch(/carries no consistency proof/);
    const badProof = anchorAt(30, { consistency_proof: log.consistencyProof(29, 40).map(bytesToBase64) });
    expect(reasonOf(receiptFor(7, 40, badProof))).toBe('anchored tree is not consistent with the checkpoint');
  });
});
