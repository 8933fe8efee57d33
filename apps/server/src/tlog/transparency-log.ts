import { randomBytes } from 'node:crypto';
import { CheckpointSigner } from '@hasta/tlog/checkpoint';
import type { JsonValue } from '@hasta/tlog/canonical-json';
import { bytesToBase64, bytesToHex } from '@hasta/tlog/encoding';
import { createEntry, encodeEntry, SALT_BYTES, type EntryType } from '@hasta/tlog/entry';
import { leafHash } from '@hasta/tlog/hashing';
import { AsyncMerkleLog } from '@hasta/tlog/merkle-log';
import { generateNoteKeys, type NoteSigner } from '@hasta/tlog/note';
import { createReceipt, type Receipt, type ReceiptAnchor } from '@hasta/tlog/receipt';
import { verifyConsistency } from '@hasta/tlog/verify';
import { sql, type Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import type { Env } from '../env';
import { nativeNoteSigner } from './native-note-signer';
import { DATA_KEY_BYTES, deriveKey, NONCE_BYTES, open, seal } from './sealing';
import { SqlSubtreeStore } from './sql-subtree-store';

/** Any fixed number: one sequencer appends at a time, across processes. */
const SEQUENCER_LOCK_KEY = 7_340_022;
/** Most events appended (and one checkpoint signed) per round, by default. */
export const MAX_ENTRIES_PER_ROUND = 2_000;
/**
 * PGlite's rounds: a round's statements run on the server's own thread and its transaction holds the only
 * connection, so a round of 2,000 entries held every transfer up for a quarter of a second. A round of 128
 * holds it for about 10 ms; rounds follow each other while events wait.
 */
export const PGLITE_ENTRIES_PER_ROUND = 128;
/** Most rounds in a row, when appending what waits. */
const MAX_ROUNDS_IN_A_ROW = 10_000;
const DEFAULT_INTERVAL_MS = 250;
/** Entries prepared between two turns of the event loop. */
const ENTRIES_PER_SLICE = 8;

export interface LogKeys {
  origin: string;
  signerKey: string;
  /** The signer of `signerKey`, parsed once, signing with node's native Ed25519. */
  signer: NoteSigner;
  verifierKey: string;
  /** HMAC key of the entries' pseudonymous subjects. */
  subjectSecret: Uint8Array;
  /** Wraps each user's data key. */
  wrapKey: Uint8Array;
}

/**
 * The log's keys: LOG_SIGNING_KEY and LOG_SECRET from the environment (required in production), otherwise
 * made once and kept in the database, so checkpoints stay verifiable across restarts.
 */
export async function loadLogKeys(db: Kysely<Schema>, env: Env): Promise<LogKeys> {
  let signerKey = env.LOG_SIGNING_KEY;
  let secret = env.LOG_SECRET;
  if (signerKey === undefined || secret === undefined) {
    const host = env.PUBLIC_URL ? new URL(env.PUBLIC_URL).host : 'hasta.local';
    await db
      .insertInto('tlog_settings')
      .values({
        id: 1,
        signer_key: generateNoteKeys(`${host}/log`).signerKey,
        secret: randomBytes(32).toString('hex'),
      })
      .onConflict((conflict) => conflict.column('id').doNothing())
      .execute();
    const stored = await db.selectFrom('tlog_settings').selectAll().executeTakeFirstOrThrow();
    signerKey ??= stored.signer_key;
    secret ??= stored.secret;
  }
  const signer = nativeNoteSigner(signerKey);
  return {
    origin: signer.name,
    signerKey,
    signer,
    verifierKey: signer.verifierKey,
    subjectSecret: deriveKey(secret, 'tlog subject'),
    wrapKey: deriveKey(secret, 'user data key wrap'),
  };
}

interface OutboxRow {
  id: bigint;
  type: string;
  ref_id: string;
  user_id: string | null;
  at: Date;
}

interface PreparedEntry {
  outboxId: bigint;
  type: EntryType;
  refId: string;
  userId: string | null;
  text: string;
  leaf: Uint8Array;
  sealed: Buffer;
}

export interface SignedCheckpoint {
  size: number;
  root: Uint8Array;
  note: string;
}

/**
 * The server's side of the log: events wait in `tlog_outbox` (written in the same transaction as what they
 * record), and a sequencer appends them in rounds. A round builds the waiting events' entries (pseudonymous
 * subject, type, minute, commitment) and seals each record and salt under its user's data key, then, in one
 * transaction, claims the events still waiting, appends their leaves, stores the new subtree hashes and signs
 * one checkpoint, consistent with the last one or not at all.
 */
export class TransparencyLog {
  #timer: NodeJS.Timeout | undefined;
  #round: Promise<number> = Promise.resolve(0);
  #draining = false;
  readonly #entriesPerRound: number;

  constructor(
    private readonly db: Kysely<Schema>,
    readonly keys: LogKeys,
    private readonly options: {
      /** ANCHOR: whether checkpoints are anchored on a chain, for what receipts without an anchor say. */
      anchoring: 'none' | 'evm';
      /** Most events per round (`MAX_ENTRIES_PER_ROUND` when not given). */
      entriesPerRound?: number;
    } = { anchoring: 'none' },
  ) {
    this.#entriesPerRound = options.entriesPerRound ?? MAX_ENTRIES_PER_ROUND;
    if (!Number.isInteger(this.#entriesPerRound) || this.#entriesPerRound < 1)
      throw new RangeError(`a round appends at least one event, not ${this.#entriesPerRound}`);
  }

  /** Signs the empty tree once, so there is always a checkpoint to read. */
  async init(): Promise<void> {
    if (!(await this.latestCheckpoint())) await this.sequence();
  }

  /** Every `intervalMs`, appends what waits, in rounds one after the other (a tick is skipped while they run). */
  start(intervalMs = DEFAULT_INTERVAL_MS): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => {
      if (this.#draining) return;
      this.#draining = true;
      void this.#drain(() => this.#timer !== undefined)
        .catch(() => undefined)
        .finally(() => {
          this.#draining = false;
        });
    }, intervalMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#round.catch(() => undefined);
  }

  /** Appends everything waiting (in rounds); for tests and shutdown. */
  flush(): Promise<void> {
    return this.#drain(() => true);
  }

  /** Rounds until one finds fewer events than a round takes (or `goOn` says stop). */
  async #drain(goOn: () => boolean): Promise<void> {
    for (let round = 0; round < MAX_ROUNDS_IN_A_ROW && goOn(); round += 1) {
      if ((await this.sequence()) < this.#entriesPerRound) return;
    }
  }

  /** One round; returns how many entries it appended. Rounds of one process never overlap. */
  sequence(): Promise<number> {
    const run = this.#round.catch(() => 0).then(() => this.#sequenceRound());
    this.#round = run;
    return run;
  }

  async #sequenceRound(): Promise<number> {
    // The waiting events' entries are made before the round's transaction: their reads, sealing and hashing
    // then hold no connection (PGlite has only one, and every transfer waits while a transaction holds it).
    // Only the appending is in the transaction, for the events still waiting when it starts.
    const waiting = await sql<OutboxRow>`
      SELECT id, type, ref_id, user_id, at FROM tlog_outbox ORDER BY id LIMIT ${this.#entriesPerRound}`.execute(
      this.db,
    );
    const prepared = waiting.rows.length > 0 ? await this.#prepare(this.db, waiting.rows) : [];
    return this.db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(${SEQUENCER_LOCK_KEY})`.execute(trx);
      const last = await latestCheckpointIn(trx);
      let claimed: PreparedEntry[] = [];
      if (prepared.length > 0) {
        // An event appended meanwhile by another process's round is gone from the outbox: not appended again.
        const deleted = await sql<{ id: bigint }>`
          DELETE FROM tlog_outbox WHERE id = ANY(${prepared.map((entry) => String(entry.outboxId))}::int8[])
          RETURNING id`.execute(trx);
        const ids = new Set(deleted.rows.map((row) => String(row.id)));
        claimed = prepared.filter((entry) => ids.has(String(entry.outboxId)));
      }
      if (claimed.length === 0 && last) return 0;

      const sizeRow = await sql<{ size: bigint }>`
        SELECT COALESCE(MAX(idx) + 1, 0)::int8 AS size FROM tlog_entries`.execute(trx);
      const size = Number(sizeRow.rows[0]!.size);
      if (last && last.size !== size)
        throw new Error(`log has ${size} entries, last checkpoint ${last.size}`);
      const log = await AsyncMerkleLog.open(new SqlSubtreeStore(trx), size);
      if (claimed.length > 0) {
        await log.appendLeafHashes(claimed.map((entry) => entry.leaf));
        await sql`
          INSERT INTO tlog_entries (idx, entry, leaf_hash, type, ref_id, user_id, sealed_record)
          SELECT idx, entry, leaf_hash, type, ref_id, user_id, decode(sealed, 'hex')
          FROM unnest(${claimed.map((_, i) => String(size + i))}::int8[], ${claimed.map((e) => e.text)}::text[],
                      ${claimed.map((e) => bytesToHex(e.leaf))}::text[], ${claimed.map((e) => e.type)}::text[],
                      ${claimed.map((e) => e.refId)}::uuid[], ${claimed.map((e) => e.userId)}::uuid[],
                      ${claimed.map((e) => e.sealed.toString('hex'))}::text[])
               AS v(idx, entry, leaf_hash, type, ref_id, user_id, sealed)`.execute(trx);
      }
      const newSize = log.size;
      const root = await log.root();
      const signer = new CheckpointSigner({ signer: this.keys.signer, last: last ?? null });
      const proof = last && last.size < newSize ? await log.consistencyProof(last.size, newSize) : [];
      const note = signer.sign({ size: newSize, root }, proof);
      if (!last || last.size !== newSize) {
        await trx
          .insertInto('tlog_checkpoints')
          .values({ tree_size: newSize, root: Buffer.from(root), note })
          .execute();
      }
      return claimed.length;
    });
  }

  /**
   * Entries for the waiting events, in order, each record sealed under its subject's data key. (A key
   * destroyed after it was read here leaves the record sealed under a key nobody keeps, as for an erased user.)
   */
  async #prepare(db: Kysely<Schema>, events: OutboxRow[]): Promise<PreparedEntry[]> {
    const paymentIds = events.filter((e) => e.type === 'payment').map((e) => e.ref_id);
    const transfers = new Map<string, TransferFacts>();
    if (paymentIds.length > 0) {
      const rows = await sql<TransferFacts>`
        SELECT t.id, t.amount_paise::text AS amount_paise, t.kind, t.phase, t.created_at, t.pending_id,
               t.reverses_id, t.debit_account_id, t.credit_account_id,
               COALESCE(da.user_id, da.points_user_id, dm.owner_user_id) AS debit_user_id,
               COALESCE(ca.user_id, ca.points_user_id, cm.owner_user_id) AS credit_user_id
        FROM ledger_transfers t
        JOIN ledger_accounts da ON da.id = t.debit_account_id
        LEFT JOIN merchants dm ON dm.id = da.merchant_id
        JOIN ledger_accounts ca ON ca.id = t.credit_account_id
        LEFT JOIN merchants cm ON cm.id = ca.merchant_id
        WHERE t.id = ANY(${paymentIds}::uuid[])`.execute(db);
      for (const row of rows.rows) transfers.set(row.id, row);
    }
    const subjects = events.map((event) => {
      if (event.type !== 'payment') return event.user_id;
      const transfer = transfers.get(event.ref_id);
      if (!transfer) throw new Error(`transfer ${event.ref_id} of a log event is missing`);
      return transfer.debit_user_id ?? transfer.credit_user_id;
    });
    const keys = await this.#dataKeys(db, [...new Set(subjects.filter((s): s is string => s !== null))]);

    // One draw of randomness for the round's salts and nonces.
    const randomness = randomBytes(events.length * (SALT_BYTES + NONCE_BYTES));
    const prepared: PreparedEntry[] = [];
    for (const [i, event] of events.entries()) {
      // A round's sealing and hashing is CPU work on the server's one event loop: give requests their turn
      // between slices, so a round of thousands of entries is never one long stall.
      if (i > 0 && i % ENTRIES_PER_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
      const userId = subjects[i] ?? null;
      const type = event.type as EntryType;
      const transfer = transfers.get(event.ref_id);
      const record: JsonValue = transfer
        ? {
            transfer_id: transfer.id,
            kind: transfer.kind,
            phase: transfer.phase,
            amount_paise: transfer.amount_paise,
            debit_account_id: transfer.debit_account_id,
            credit_account_id: transfer.credit_account_id,
            pending_id: transfer.pending_id,
            reverses_id: transfer.reverses_id,
            at: new Date(transfer.created_at).toISOString(),
          }
        : { event: type, ref_id: event.ref_id, at: event.at.toISOString() };
      const drawn = randomness.subarray(i * (SALT_BYTES + NONCE_BYTES), (i + 1) * (SALT_BYTES + NONCE_BYTES));
      const salt = drawn.subarray(0, SALT_BYTES);
      const entry = createEntry({
        serverSecret: this.keys.subjectSecret,
        // Events without a person (none today) get the log's own subject.
        userId: userId ?? 'hasta',
        type,
        at: transfer ? new Date(transfer.created_at) : event.at,
        record,
        salt,
      });
      const text = encodeEntry(entry);
      const plaintext = Buffer.from(JSON.stringify({ record, salt: Buffer.from(salt).toString('base64') }));
      // A record of an erased user is sealed under a key nobody keeps.
      const key = (userId && keys.get(userId)) || randomBytes(DATA_KEY_BYTES);
      prepared.push({
        outboxId: event.id,
        type,
        refId: event.ref_id,
        userId,
        text,
        leaf: leafHash(new TextEncoder().encode(text)),
        sealed: seal(key, plaintext, `tlog record ${event.ref_id}`, drawn.subarray(SALT_BYTES)),
      });
    }
    return prepared;
  }

  /** Each user's data key, made on first use; erased users have none (absent from the map). */
  async #dataKeys(db: Kysely<Schema>, userIds: string[]): Promise<Map<string, Uint8Array>> {
    const keys = new Map<string, Uint8Array>();
    if (userIds.length === 0) return keys;
    const read = async (ids: string[]) =>
      (
        await sql<{ user_id: string; wrapped_key: Uint8Array | null }>`
          SELECT user_id, wrapped_key FROM user_data_keys WHERE user_id = ANY(${ids}::uuid[])`.execute(db)
      ).rows;
    const rows = await read(userIds);
    const known = new Set(rows.map((row) => row.user_id));
    const missing = userIds.filter((userId) => !known.has(userId));
    if (missing.length > 0) {
      // First records of these users: make their keys (a key made elsewhere meanwhile wins; it is read back).
      const fresh = missing.map((userId) => ({
        userId,
        wrapped: seal(this.keys.wrapKey, randomBytes(DATA_KEY_BYTES), `data key ${userId}`),
      }));
      await sql`
        INSERT INTO user_data_keys (user_id, wrapped_key)
        SELECT user_id, decode(wrapped, 'hex')
        FROM unnest(${fresh.map((f) => f.userId)}::uuid[], ${fresh.map((f) => f.wrapped.toString('hex'))}::text[]) AS v(user_id, wrapped)
        ON CONFLICT (user_id) DO NOTHING`.execute(db);
      rows.push(...(await read(missing)));
    }
    for (const row of rows) {
      if (row.wrapped_key === null) continue;
      const key = open(this.keys.wrapKey, row.wrapped_key, `data key ${row.user_id}`);
      if (!key) throw new Error(`the data key of user ${row.user_id} does not open with the server's key`);
      keys.set(row.user_id, key);
    }
    return keys;
  }

  latestCheckpoint(): Promise<SignedCheckpoint | undefined> {
    return latestCheckpointIn(this.db);
  }

  /** The receipt of the newest entry about `refId` (a transfer or consent event), against the latest checkpoint. */
  async receiptFor(refId: string): Promise<Receipt | undefined> {
    const entry = await this.db
      .selectFrom('tlog_entries')
      .select(['idx', 'entry'])
      .where('ref_id', '=', refId)
      .orderBy('idx', 'desc')
      .executeTakeFirst();
    const checkpoint = await this.latestCheckpoint();
    if (!entry || !checkpoint || checkpoint.size <= Number(entry.idx)) return undefined;
    const log = await AsyncMerkleLog.open(new SqlSubtreeStore(this.db), checkpoint.size);
    const anchor = await this.#anchorCovering(log, Number(entry.idx), checkpoint);
    return createReceipt({
      origin: this.keys.origin,
      index: Number(entry.idx),
      treeSize: checkpoint.size,
      entry: entry.entry,
      inclusionProof: await log.inclusionProof(Number(entry.idx), checkpoint.size),
      checkpoint: checkpoint.note,
      anchor,
      anchorStatus: this.options.anchoring === 'evm' ? 'pending' : 'not-anchored',
      verifierKey: this.keys.verifierKey,
    });
  }

  /**
   * The first confirmed anchor that covers entry `index` (the earliest tree on chain holding it: it never
   * changes afterwards), with the consistency proof from its tree to the checkpoint's; null when none does.
   */
  async #anchorCovering(
    log: AsyncMerkleLog,
    index: number,
    checkpoint: SignedCheckpoint,
  ): Promise<ReceiptAnchor | null> {
    const row = await this.db
      .selectFrom('tlog_anchors')
      .select(['tree_size', 'root', 'chain', 'chain_id', 'contract', 'tx_hash', 'block_number'])
      .where('status', '=', 'confirmed')
      .where('tree_size', '>', BigInt(index))
      .where('tree_size', '<=', BigInt(checkpoint.size))
      .orderBy('tree_size')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    if (!row || row.block_number === null) return null;
    const size = Number(row.tree_size);
    const root = new Uint8Array(row.root);
    const proof = size < checkpoint.size ? await log.consistencyProof(size, checkpoint.size) : [];
    // The anchored tree must be a prefix of the signed one; a receipt never carries an anchor that is not.
    if (!verifyConsistency(size, checkpoint.size, proof, root, checkpoint.root)) {
      throw new Error(`anchor at tree size ${size} is not consistent with checkpoint ${checkpoint.size}`);
    }
    return {
      chain: row.chain,
      chain_id: Number(row.chain_id),
      contract: row.contract,
      tx_hash: row.tx_hash,
      block_number: Number(row.block_number),
      tree_size: size,
      root: `0x${bytesToHex(root)}`,
      ...(proof.length > 0 ? { consistency_proof: proof.map(bytesToBase64) } : {}),
    };
  }

  /** Proofs against the latest checkpoint's tree (sizes beyond it are refused by the caller). */
  async inclusionProof(index: number, size: number): Promise<Uint8Array[]> {
    const log = await AsyncMerkleLog.open(new SqlSubtreeStore(this.db), size);
    return log.inclusionProof(index, size);
  }

  async consistencyProof(first: number, second: number): Promise<Uint8Array[]> {
    const log = await AsyncMerkleLog.open(new SqlSubtreeStore(this.db), second);
    return log.consistencyProof(first, second);
  }

  /** A user's own record and salt behind an entry's commitment; null once their key is destroyed. */
  async openRecord(idx: number): Promise<{ record: JsonValue; salt: string } | null> {
    const row = await this.db
      .selectFrom('tlog_entries')
      .leftJoin('user_data_keys', 'user_data_keys.user_id', 'tlog_entries.user_id')
      .select([
        'tlog_entries.ref_id',
        'tlog_entries.sealed_record',
        'user_data_keys.wrapped_key',
        'tlog_entries.user_id',
      ])
      .where('tlog_entries.idx', '=', BigInt(idx))
      .executeTakeFirst();
    if (!row?.wrapped_key || !row.user_id) return null;
    const key = open(this.keys.wrapKey, row.wrapped_key, `data key ${row.user_id}`);
    const plaintext = key && open(key, row.sealed_record, `tlog record ${row.ref_id}`);
    return plaintext ? (JSON.parse(plaintext.toString('utf8')) as { record: JsonValue; salt: string }) : null;
  }

  /** Crypto-shredding: destroys the user's data key, so their records can never be opened again. */
  async destroyDataKey(userId: string): Promise<void> {
    await this.db
      .insertInto('user_data_keys')
      .values({ user_id: userId, wrapped_key: null, destroyed_at: new Date() })
      .onConflict((conflict) =>
        conflict.column('user_id').doUpdateSet({ wrapped_key: null, destroyed_at: new Date() }),
      )
      .execute();
  }
}

interface TransferFacts {
  id: string;
  amount_paise: string;
  kind: string;
  phase: string;
  created_at: Date;
  pending_id: string | null;
  reverses_id: string | null;
  debit_account_id: string;
  credit_account_id: string;
  debit_user_id: string | null;
  credit_user_id: string | null;
}

async function latestCheckpointIn(db: Kysely<Schema>): Promise<SignedCheckpoint | undefined> {
  const row = await db
    .selectFrom('tlog_checkpoints')
    .select(['tree_size', 'root', 'note'])
    .orderBy('tree_size', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { size: Number(row.tree_size), root: new Uint8Array(row.root), note: row.note } : undefined;
}
