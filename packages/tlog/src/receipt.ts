/**
 * Receipts: what a user keeps to prove, to anyone and without trusting the server, that an entry is in the
 * log. A receipt carries the entry, its inclusion proof and a checkpoint signed by the log; optionally an
 * anchor, a root the log also wrote to a public chain, which the verifier checks on that chain itself.
 */
import { openCheckpoint, type Checkpoint } from './checkpoint';
import { base64ToBytes, bytesToBase64, bytesToHex, utf8ToBytes } from './encoding';
import { parseEntry, type LogEntry } from './entry';
import { HASH_SIZE, leafHash } from './hashing';
import { fail, ok, type Failure, type Result } from './result';
import { MAX_PROOF_LENGTH, verifyConsistency, verifyInclusion } from './verify';

export interface ReceiptAnchor {
  /** Chain name for people, e.g. "base-sepolia". */
  chain: string;
  chain_id: number;
  /** The anchoring contract, 0x-prefixed 20-byte address. */
  contract: string;
  /** 0x-prefixed 32-byte hash of the anchoring transaction. */
  tx_hash: string;
  block_number: number;
  /** The tree size and root (0x-prefixed bytes32, as stored on chain) that were anchored. */
  tree_size: number;
  root: string;
  /**
   * When the anchored size differs from the checkpoint's, the consistency proof (base64 hashes) from the
   * smaller of the two trees to the larger: it binds the anchored root to the signed one.
   */
  consistency_proof?: string[];
}

/**
 * What the log says about anchoring this receipt: `anchored` (see `anchor`), `pending` (the log anchors its
 * checkpoints but none covers this entry yet) or `not-anchored` (the log is not anchored on any chain). A
 * statement of the server, not a proof: it can only make a receipt claim less.
 */
export type AnchorStatus = 'anchored' | 'pending' | 'not-anchored';
const ANCHOR_STATUSES: readonly AnchorStatus[] = ['anchored', 'pending', 'not-anchored'];

export interface Receipt {
  /** The log's origin, as in its checkpoints. */
  origin: string;
  /** The entry's position in the log, from 0. */
  index: number;
  /** The size of the tree the inclusion proof and checkpoint are for. */
  tree_size: number;
  /** The entry's canonical JSON text; its UTF-8 bytes are the leaf. */
  entry: string;
  /** RFC 9162 inclusion proof, base64 hashes, nearest to the leaf first. */
  inclusion_proof: string[];
  /** The signed note of the checkpoint at `tree_size`. */
  checkpoint: string;
  anchor: ReceiptAnchor | null;
  anchor_status?: AnchorStatus;
  /** The log's verifier key, for convenience only: a verifier must get the key from a source it trusts. */
  verifier_key?: string;
}

/** What remains to check on chain: that `contract` recorded `root` for `tree_size`. */
export interface OnchainCheck {
  chain: string;
  chain_id: number;
  contract: string;
  tx_hash: string;
  block_number: number;
  tree_size: number;
  root: string;
}

export type AnchorOutcome =
  /** No anchor; `status` repeats what the receipt states about anchoring, when it states it. */
  | { kind: 'none'; status?: Exclude<AnchorStatus, 'anchored'> }
  /** The anchored tree is older than the entry: it says nothing about it. */
  | { kind: 'before-entry'; tree_size: number }
  | ({ kind: 'check-on-chain' } & OnchainCheck);

export type ReceiptVerification =
  { ok: true; entry: LogEntry; checkpoint: Checkpoint; anchor: AnchorOutcome } | Failure;

/** Builds a receipt from the log's data (the server's side). */
export function createReceipt(input: {
  origin: string;
  index: number;
  treeSize: number;
  entry: string;
  inclusionProof: readonly Uint8Array[];
  checkpoint: string;
  anchor?: ReceiptAnchor | null;
  /** Without an anchor: whether the log anchors at all (`pending`) or not (`not-anchored`). */
  anchorStatus?: Exclude<AnchorStatus, 'anchored'>;
  verifierKey?: string;
}): Receipt {
  const anchor = input.anchor ?? null;
  const status = anchor !== null ? 'anchored' : input.anchorStatus;
  return {
    origin: input.origin,
    index: input.index,
    tree_size: input.treeSize,
    entry: input.entry,
    inclusion_proof: input.inclusionProof.map(bytesToBase64),
    checkpoint: input.checkpoint,
    anchor,
    ...(status === undefined ? {} : { anchor_status: status }),
    ...(input.verifierKey === undefined ? {} : { verifier_key: input.verifierKey }),
  };
}

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
const isText = (value: unknown, max: number): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= max;
const isHashList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.length <= MAX_PROOF_LENGTH && value.every((item) => isText(item, 64));

/** Checks a receipt's shape (it usually comes from a file or the network); the reason names the field. */
export function parseReceipt(value: unknown): Result<Receipt> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return fail('receipt is not an object');
  const r = value as Record<string, unknown>;
  if (!isText(r.origin, 1024)) return fail('receipt origin is missing');
  if (!isCount(r.index)) return fail('receipt index is not a whole number');
  if (!isCount(r.tree_size)) return fail('receipt tree_size is not a whole number');
  if (!isText(r.entry, 64 * 1024)) return fail('receipt entry is missing');
  if (!isHashList(r.inclusion_proof)) return fail('receipt inclusion_proof is not a list of hashes');
  if (!isText(r.checkpoint, 64 * 1024)) return fail('receipt checkpoint is missing');
  if (r.verifier_key !== undefined && !isText(r.verifier_key, 1024))
    return fail('receipt verifier_key is bad');
  let anchor: ReceiptAnchor | null = null;
  if (r.anchor !== null && r.anchor !== undefined) {
    const parsed = parseAnchor(r.anchor);
    if (!parsed.ok) return parsed;
    anchor = parsed.value;
  }
  const status = r.anchor_status;
  if (status !== undefined) {
    if (!ANCHOR_STATUSES.includes(status as AnchorStatus)) return fail('receipt anchor_status is unknown');
    if ((status === 'anchored') !== (anchor !== null)) {
      return fail(`receipt anchor_status is ${String(status)} but it ${anchor ? 'has' : 'has no'} anchor`);
    }
  }
  return ok({
    origin: r.origin,
    index: r.index,
    tree_size: r.tree_size,
    entry: r.entry,
    inclusion_proof: r.inclusion_proof,
    checkpoint: r.checkpoint,
    anchor,
    ...(status === undefined ? {} : { anchor_status: status as AnchorStatus }),
    ...(r.verifier_key === undefined ? {} : { verifier_key: r.verifier_key }),
  });
}

function parseAnchor(value: unknown): Result<ReceiptAnchor> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return fail('receipt anchor is not an object');
  const a = value as Record<string, unknown>;
  if (!isText(a.chain, 100)) return fail('anchor chain is missing');
  if (!isCount(a.chain_id) || a.chain_id === 0) return fail('anchor chain_id is not a positive whole number');
  if (typeof a.contract !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(a.contract)) {
    return fail('anchor contract is not an address');
  }
  if (typeof a.tx_hash !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(a.tx_hash)) {
    return fail('anchor tx_hash is not a transaction hash');
  }
  if (!isCount(a.block_number)) return fail('anchor block_number is not a whole number');
  if (!isCount(a.tree_size)) return fail('anchor tree_size is not a whole number');
  if (typeof a.root !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(a.root))
    return fail('anchor root is not a bytes32');
  if (a.consistency_proof !== undefined && !isHashList(a.consistency_proof)) {
    return fail('anchor consistency_proof is not a list of hashes');
  }
  return ok({
    chain: a.chain,
    chain_id: a.chain_id,
    contract: a.contract,
    tx_hash: a.tx_hash,
    block_number: a.block_number,
    tree_size: a.tree_size,
    root: a.root,
    ...(a.consistency_proof === undefined ? {} : { consistency_proof: a.consistency_proof }),
  });
}

function decodeHashes(list: readonly string[]): Uint8Array[] | null {
  const out: Uint8Array[] = [];
  for (const item of list) {
    const hash = base64ToBytes(item);
    if (hash === null || hash.length !== HASH_SIZE) return null;
    out.push(hash);
  }
  return out;
}

function rootFromHex(text: string): Uint8Array {
  const bytes = new Uint8Array(HASH_SIZE);
  for (let i = 0; i < HASH_SIZE; i++) bytes[i] = Number.parseInt(text.slice(2 + 2 * i, 4 + 2 * i), 16);
  return bytes;
}

/**
 * Verifies a receipt against the log's verifier key: the checkpoint's signature and origin, the entry's
 * form, and the inclusion proof against the checkpoint's root. An anchor that covers the entry is tied to
 * the signed root here (same root, or a consistency proof), and the chain lookup is returned for the caller.
 */
export function verifyReceipt(receipt: unknown, verifierKey: string): ReceiptVerification {
  const parsed = parseReceipt(receipt);
  if (!parsed.ok) return parsed;
  const r = parsed.value;

  const opened = openCheckpoint(r.checkpoint, verifierKey);
  if (!opened.ok) return opened;
  const checkpoint = opened.value;
  if (checkpoint.origin !== r.origin) {
    return fail(`checkpoint origin ${checkpoint.origin} does not match the receipt origin ${r.origin}`);
  }
  if (checkpoint.size !== r.tree_size) {
    return fail(`checkpoint is for tree size ${checkpoint.size}, the receipt for ${r.tree_size}`);
  }
  if (r.index >= r.tree_size) return fail(`entry ${r.index} is not in a tree of ${r.tree_size} entries`);

  const entry = parseEntry(r.entry);
  if (!entry.ok) return entry;
  const proof = decodeHashes(r.inclusion_proof);
  if (proof === null) return fail('inclusion proof has a malformed hash');
  if (!verifyInclusion(leafHash(utf8ToBytes(r.entry)), r.index, r.tree_size, proof, checkpoint.root)) {
    return fail('inclusion proof does not lead to the checkpoint root');
  }

  const anchor = checkAnchor(r, checkpoint);
  if (!anchor.ok) return anchor;
  return { ok: true, entry: entry.value, checkpoint, anchor: anchor.value };
}

function checkAnchor(r: Receipt, checkpoint: Checkpoint): Result<AnchorOutcome> {
  const a = r.anchor;
  if (a === null) {
    const status = r.anchor_status;
    return ok(
      status === 'pending' || status === 'not-anchored' ? { kind: 'none', status } : { kind: 'none' },
    );
  }
  if (a.tree_size < r.index + 1) return ok({ kind: 'before-entry', tree_size: a.tree_size });
  const anchoredRoot = rootFromHex(a.root);
  if (a.tree_size === checkpoint.size) {
    if (bytesToHex(anchoredRoot) !== bytesToHex(checkpoint.root)) {
      return fail('anchored root differs from the checkpoint root at the same tree size');
    }
  } else {
    const proof = a.consistency_proof === undefined ? null : decodeHashes(a.consistency_proof);
    if (proof === null) {
      return fail(
        `anchor is for tree size ${a.tree_size} but carries no consistency proof to the checkpoint`,
      );
    }
    const consistent =
      a.tree_size < checkpoint.size
        ? verifyConsistency(a.tree_size, checkpoint.size, proof, anchoredRoot, checkpoint.root)
        : verifyConsistency(checkpoint.size, a.tree_size, proof, checkpoint.root, anchoredRoot);
    if (!consistent) return fail('anchored tree is not consistent with the checkpoint');
  }
  return ok({
    kind: 'check-on-chain',
    chain: a.chain,
    chain_id: a.chain_id,
    contract: a.contract,
    tx_hash: a.tx_hash,
    block_number: a.block_number,
    tree_size: a.tree_size,
    root: a.root.toLowerCase(),
  });
}
