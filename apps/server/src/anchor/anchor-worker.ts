/**
 * The anchoring worker and the monitor (decision 015). Each round:
 * 1. settles the anchor transaction it sent last, if it is not settled yet (one in flight at most);
 * 2. reads the registry's latest (root, size) from the chain and checks it is the log's own tree;
 * 3. monitors: every checkpoint signed since the last round must be consistent with that anchored tree;
 * 4. anchors the latest checkpoint when it is due: `intervalMs` after the previous attempt, or earlier once
 *    `maxEntries` entries arrived since it. A transaction is stored (signed) before it is sent.
 * Anything that shows a fork — the chain holding another root for our tree, a checkpoint that does not
 * extend the anchored tree — is logged as an alarm and stops the worker: it never anchors a fork.
 */
import { bytesToHex, equalBytes, hexToBytes } from '@hasta/tlog/encoding';
import { EMPTY_ROOT } from '@hasta/tlog/hashing';
import { AsyncMerkleLog } from '@hasta/tlog/merkle-log';
import { verifyConsistency } from '@hasta/tlog/verify';
import { sql, type Kysely } from 'kysely';
import { parseTransaction, type Hex } from 'viem';
import type { Schema } from '../db/schema';
import { SqlSubtreeStore } from '../tlog/sql-subtree-store';
import type { EvmAnchorRegistry, MinedAnchor } from './evm-registry';

export type AnchorRegistry = Pick<
  EvmAnchorRegistry,
  | 'chainName'
  | 'chainId'
  | 'contract'
  | 'latest'
  | 'setupProblems'
  | 'signAnchor'
  | 'broadcast'
  | 'mined'
  | 'waitForMined'
  | 'minedNonce'
>;

/** pino's shape, so the server passes its logger. */
export interface AnchorLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface AnchorWorkerOptions {
  /** The log's origin: the registry must be the one deployed for it. */
  origin: string;
  /** Anchor at most this long after the previous attempt when there is anything new (ANCHOR_INTERVAL_MS). */
  intervalMs: number;
  /** Anchor earlier once this many entries arrived since the previous attempt (ANCHOR_MAX_ENTRIES). */
  maxEntries: number;
  /** Longest wait, within one round, for a sent transaction to be mined. */
  minedTimeoutMs?: number;
  logger: AnchorLogger;
  now?: () => Date;
}

export type AnchorRound =
  | { kind: 'halted'; reason: string }
  /** A sent anchor is not mined yet; nothing new is sent meanwhile. */
  | { kind: 'waiting'; tx_hash: string }
  | { kind: 'idle'; reason: 'no-checkpoint' | 'nothing-new' | 'not-due' }
  | { kind: 'anchored'; tree_size: number; tx_hash: string; block_number: number; gas_used: bigint }
  /** The transaction was mined but reverted; the next attempt waits for the next trigger. */
  | { kind: 'failed'; tree_size: number; tx_hash: string };

const DEFAULT_MINED_TIMEOUT_MS = 60_000;
/** Longest a shutdown waits for the current round. */
const STOP_WAIT_MS = 5_000;
/** Most checkpoints the monitor checks in one round; the rest wait for the next round. */
const MONITOR_BATCH = 1_000;
/** Most unsettled transactions looked at per round (there is normally one at most). */
const SETTLE_BATCH = 10;

interface AnchoredTree {
  size: number;
  root: Uint8Array;
}

export class AnchorWorker {
  #timer: NodeJS.Timeout | undefined;
  #round: Promise<unknown> = Promise.resolve();
  #halted: string | null = null;
  #setupChecked = false;
  /** The largest checkpoint size the monitor has checked; null until it first has an anchor to check with. */
  #monitoredSize: number | null = null;
  readonly #now: () => Date;
  readonly #minedTimeoutMs: number;

  constructor(
    private readonly db: Kysely<Schema>,
    readonly registry: AnchorRegistry,
    private readonly options: AnchorWorkerOptions,
  ) {
    if (!(options.intervalMs > 0) || !(options.maxEntries > 0)) {
      throw new Error('the anchoring interval and entry count must be positive');
    }
    this.#now = options.now ?? (() => new Date());
    this.#minedTimeoutMs = options.minedTimeoutMs ?? DEFAULT_MINED_TIMEOUT_MS;
  }

  /** Why the worker stopped (a fork or a wrong setup), or null while it runs. */
  get halted(): string | null {
    return this.#halted;
  }

  /**
   * Checks the chain, contract, log and key fit together; throws on a wrong setup. An unreachable RPC is
   * only logged: the rounds check again until it answers.
   */
  async checkSetup(): Promise<void> {
    let problems: string[];
    try {
      problems = await this.registry.setupProblems(this.options.origin);
    } catch (error) {
      this.options.logger.warn(
        { err: error, chain: this.registry.chainName },
        'anchoring: the chain does not answer yet; rounds will retry',
      );
      return;
    }
    if (problems.length > 0) throw new Error(`ANCHOR=evm is misconfigured: ${problems.join('; ')}`);
    this.#setupChecked = true;
  }

  start(checkEveryMs: number): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => {
      void this.runOnce().catch((error: unknown) => {
        this.options.logger.warn({ err: error, chain: this.registry.chainName }, 'anchoring round failed');
      });
    }, checkEveryMs);
    this.#timer.unref();
  }

  /**
   * Stops the rounds and waits a little for the current one. A round waiting for its transaction to be mined
   * is not waited for: the transaction is stored, and the next start settles it.
   */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    let timeout: NodeJS.Timeout | undefined;
    await Promise.race([
      this.#round.catch(() => undefined),
      new Promise((resolve) => {
        timeout = setTimeout(resolve, STOP_WAIT_MS);
      }),
    ]);
    clearTimeout(timeout);
  }

  /** One round (see the file's comment); rounds never overlap. */
  runOnce(): Promise<AnchorRound> {
    const run = this.#round.catch(() => undefined).then(() => this.#runRound());
    this.#round = run;
    return run;
  }

  async #runRound(): Promise<AnchorRound> {
    if (this.#halted !== null) return { kind: 'halted', reason: this.#halted };
    if (!this.#setupChecked) {
      const problems = await this.registry.setupProblems(this.options.origin);
      if (problems.length > 0) return this.#halt(`misconfigured: ${problems.join('; ')}`, {});
      this.#setupChecked = true;
    }

    const unsettled = await this.#settleSent();
    if (unsettled !== null) return unsettled;

    const anchored = await this.#anchoredTree();
    if ('kind' in anchored) return anchored;

    const monitored = await this.#monitor(anchored.tree);
    if (monitored !== null) return monitored;

    const latest = await this.db
      .selectFrom('tlog_checkpoints')
      .select(['tree_size', 'root'])
      .orderBy('tree_size', 'desc')
      .limit(1)
      .executeTakeFirst();
    const size = Number(latest?.tree_size ?? 0);
    if (!latest || size === 0) return { kind: 'idle', reason: 'no-checkpoint' };
    if (anchored.tree && size <= anchored.tree.size) return { kind: 'idle', reason: 'nothing-new' };

    const last = await this.#rows().orderBy('id', 'desc').limit(1).executeTakeFirst();
    const due =
      last === undefined ||
      this.#now().getTime() - last.anchored_at.getTime() >= this.options.intervalMs ||
      size - Number(last.tree_size) >= this.options.maxEntries;
    if (!due) return { kind: 'idle', reason: 'not-due' };
    return this.#anchor(size, new Uint8Array(latest.root));
  }

  #rows() {
    return this.db
      .selectFrom('tlog_anchors')
      .select(['id', 'tree_size', 'root', 'tx_hash', 'raw_tx', 'status', 'anchored_at'])
      .where('chain_id', '=', BigInt(this.registry.chainId))
      .where('contract', '=', this.registry.contract);
  }

  /** Signs, stores, sends and waits for one anchor of the checkpoint (size, root). */
  async #anchor(size: number, root: Uint8Array): Promise<AnchorRound> {
    // Never anchor a checkpoint the log's own subtrees do not give: that root would be a fork on chain.
    const ours = await this.#logRoot(size);
    if (typeof ours === 'string' || !equalBytes(ours, root)) {
      return this.#halt(`FORK: checkpoint ${size} is not the log's tree`, {
        checkpoint: { tree_size: size, root: `0x${bytesToHex(root)}` },
        log: typeof ours === 'string' ? ours : `0x${bytesToHex(ours)}`,
      });
    }
    const signed = await this.registry.signAnchor(root, size);
    const inserted = await sql<{ id: bigint }>`
      INSERT INTO tlog_anchors (tree_size, root, chain, chain_id, contract, tx_hash, raw_tx, status, anchored_at)
      SELECT c.tree_size, c.root, ${this.registry.chainName}, ${this.registry.chainId}, ${this.registry.contract},
             ${signed.txHash.toLowerCase()}, ${signed.rawTransaction}, 'sent', ${this.#now()}
      FROM tlog_checkpoints c WHERE c.tree_size = ${size} AND c.root = ${Buffer.from(root)}
      RETURNING id`.execute(this.db);
    const row = inserted.rows[0];
    if (!row) throw new Error(`checkpoint ${size} changed while it was being anchored`);
    this.options.logger.info(
      { chain: this.registry.chainName, tree_size: size, tx_hash: signed.txHash },
      'anchoring the log',
    );
    await this.registry.broadcast(signed);
    const mined = await this.registry.waitForMined(signed.txHash, this.#minedTimeoutMs);
    if (mined === null) return { kind: 'waiting', tx_hash: signed.txHash };
    return this.#settle({ id: row.id, tree_size: BigInt(size), root, tx_hash: signed.txHash }, mined);
  }

  /**
   * Settles transactions sent earlier (by this or a previous process): mined ones are recorded; one whose
   * nonce was used by another transaction failed; the rest are sent again and waited for once.
   * Returns the round's answer when it settled one or one is still unsettled, null when there was none.
   */
  async #settleSent(): Promise<AnchorRound | null> {
    const sent = await this.#rows().where('status', '=', 'sent').orderBy('id').limit(SETTLE_BATCH).execute();
    for (const row of sent) {
      const txHash = row.tx_hash as Hex;
      let mined = await this.registry.mined(txHash);
      if (mined === null && row.raw_tx !== null) {
        const nonce = parseTransaction(row.raw_tx as Hex).nonce;
        if (nonce !== undefined && (await this.registry.minedNonce()) > nonce) {
          await this.#markFailed(row.id, 'its nonce was used by another transaction');
          continue;
        }
        await this.registry
          .broadcast({ txHash, rawTransaction: row.raw_tx as Hex })
          .catch((error: unknown) => {
            this.options.logger.warn({ err: error, tx_hash: txHash }, 'anchoring: sending again failed');
          });
        mined = await this.registry.waitForMined(txHash, this.#minedTimeoutMs);
      }
      if (mined === null) return { kind: 'waiting', tx_hash: txHash };
      return this.#settle({ ...row, root: new Uint8Array(row.root) }, mined);
    }
    return null;
  }

  async #settle(
    row: { id: bigint; tree_size: bigint; root: Uint8Array; tx_hash: string },
    mined: MinedAnchor,
  ): Promise<AnchorRound> {
    const size = Number(row.tree_size);
    if (mined.status !== 'success') {
      await this.#markFailed(row.id, 'the transaction reverted');
      return { kind: 'failed', tree_size: size, tx_hash: row.tx_hash };
    }
    const root = `0x${bytesToHex(row.root)}`;
    const recorded = mined.anchored.filter((event) => event.treeSize === size && event.root === root);
    if (recorded.length !== 1 || mined.anchored.length !== 1) {
      await this.#markFailed(row.id, 'its Anchored event is not the one sent');
      return this.#halt('the registry did not record the anchor that was sent', {
        tx_hash: row.tx_hash,
        expected: { tree_size: size, root },
        recorded: mined.anchored,
      });
    }
    await this.db
      .updateTable('tlog_anchors')
      .set({
        status: 'confirmed',
        block_number: mined.blockNumber,
        gas_used: mined.gasUsed,
        raw_tx: null,
        settled_at: this.#now(),
      })
      .where('id', '=', row.id)
      .where('status', '=', 'sent')
      .execute();
    this.options.logger.info(
      {
        chain: this.registry.chainName,
        tree_size: size,
        tx_hash: row.tx_hash,
        block_number: mined.blockNumber,
        gas_used: String(mined.gasUsed),
      },
      'log anchored',
    );
    return {
      kind: 'anchored',
      tree_size: size,
      tx_hash: row.tx_hash,
      block_number: mined.blockNumber,
      gas_used: mined.gasUsed,
    };
  }

  async #markFailed(id: bigint, why: string): Promise<void> {
    await this.db
      .updateTable('tlog_anchors')
      .set({ status: 'failed', raw_tx: null, settled_at: this.#now() })
      .where('id', '=', id)
      .where('status', '=', 'sent')
      .execute();
    this.options.logger.error(
      { chain: this.registry.chainName, anchor_id: String(id) },
      `anchor failed: ${why}`,
    );
  }

  /**
   * The tree the chain holds, checked against the log: the registry's latest root must be the log's root at
   * that size, and the registry must not be behind an anchor we saw confirmed.
   */
  async #anchoredTree(): Promise<{ tree: AnchoredTree | null } | AnchorRound> {
    const onChain = await this.registry.latest();
    const confirmed = await this.#rows()
      .where('status', '=', 'confirmed')
      .orderBy('tree_size', 'desc')
      .limit(1)
      .executeTakeFirst();
    const confirmedSize = Number(confirmed?.tree_size ?? 0);
    if (onChain.treeSize < confirmedSize) {
      return this.#halt('the registry is behind an anchor recorded as confirmed (reorganised chain?)', {
        on_chain: onChain,
        confirmed_tree_size: confirmedSize,
      });
    }
    if (onChain.treeSize === 0) return { tree: null };
    const chainRoot = hexToBytes(onChain.root.slice(2));
    if (chainRoot === null || chainRoot.length !== 32)
      throw new Error(`registry root ${onChain.root} is malformed`);
    const ours = await this.#logRoot(onChain.treeSize);
    if (typeof ours === 'string') {
      return this.#halt('the registry holds a tree this log cannot give', { on_chain: onChain, log: ours });
    }
    if (!equalBytes(ours, chainRoot)) {
      return this.#halt('FORK: the registry holds another root for a size of this log', {
        on_chain: onChain,
        log_root: `0x${bytesToHex(ours)}`,
      });
    }
    if (onChain.treeSize > confirmedSize) {
      this.options.logger.warn(
        { chain: this.registry.chainName, on_chain: onChain },
        'anchoring: the registry holds an anchor of this log that was not recorded here (another sender?)',
      );
    }
    return { tree: { size: onChain.treeSize, root: chainRoot } };
  }

  /** The log's root at `size`, from its stored subtrees (not from a checkpoint); a reason when it has none. */
  async #logRoot(size: number): Promise<Uint8Array | string> {
    try {
      return await (await AsyncMerkleLog.open(new SqlSubtreeStore(this.db), size)).root();
    } catch (error) {
      return `the log cannot give the root of size ${size} (${(error as Error).message})`;
    }
  }

  /**
   * Checks every checkpoint signed since the last round is consistent with the anchored tree: the chain's
   * root, not the database's, is the reference, so a rewritten database cannot vouch for itself.
   */
  async #monitor(anchored: AnchoredTree | null): Promise<AnchorRound | null> {
    if (anchored === null) return null;
    const from = Math.max(this.#monitoredSize ?? anchored.size, 0);
    const checkpoints = await this.db
      .selectFrom('tlog_checkpoints')
      .select(['tree_size', 'root'])
      .where('tree_size', '>', BigInt(from))
      .orderBy('tree_size')
      .limit(MONITOR_BATCH)
      .execute();
    for (const checkpoint of checkpoints) {
      const size = Number(checkpoint.tree_size);
      const root = new Uint8Array(checkpoint.root);
      const problem = await this.#consistencyProblem(anchored, size, root);
      if (problem !== null) {
        return this.#halt(`FORK: checkpoint ${size} is not consistent with the anchored tree: ${problem}`, {
          anchored: { tree_size: anchored.size, root: `0x${bytesToHex(anchored.root)}` },
          checkpoint: { tree_size: size, root: `0x${bytesToHex(root)}` },
        });
      }
      this.#monitoredSize = size;
    }
    if (this.#monitoredSize === null || this.#monitoredSize < anchored.size)
      this.#monitoredSize = anchored.size;
    return null;
  }

  async #consistencyProblem(anchored: AnchoredTree, size: number, root: Uint8Array): Promise<string | null> {
    if (size === anchored.size)
      return equalBytes(root, anchored.root) ? null : 'another root at the same size';
    const [small, large] =
      size < anchored.size ? [{ size, root }, anchored] : [anchored, { size, root: root }];
    // The empty tree is a prefix of every tree: nothing to prove (and no proof from size 0 verifies).
    if (small.size === 0)
      return equalBytes(small.root, EMPTY_ROOT)
        ? null
        : 'the empty tree with another root than SHA-256 of nothing';
    let proof: Uint8Array[];
    try {
      const log = await AsyncMerkleLog.open(new SqlSubtreeStore(this.db), large.size);
      proof = await log.consistencyProof(small.size, large.size);
    } catch (error) {
      return `the log cannot prove it (${(error as Error).message})`;
    }
    return verifyConsistency(small.size, large.size, proof, small.root, large.root)
      ? null
      : 'the consistency proof fails';
  }

  #halt(reason: string, details: object): AnchorRound {
    this.#halted = reason;
    this.options.logger.error(
      { alarm: 'tlog-anchor', chain: this.registry.chainName, contract: this.registry.contract, ...details },
      `ANCHORING STOPPED: ${reason}`,
    );
    return { kind: 'halted', reason };
  }
}
