import { randomUUID } from 'node:crypto';
import { parseTemplate, serializeTemplate, type ProtectedTemplate } from '@hasta/palm/protect';
import { isReplayDistance, REPLAY_MAX_DISTANCE, type ReplayScan } from '@hasta/palm/replay';
import type { Kysely, Transaction } from 'kysely';
import type { Schema } from '../db/schema';
import { open, seal } from '../tlog/sealing';
import type { PalmKey, PalmKeys } from './palm-keys';
import { RecentScanRepository, type SealedScan } from './recent-scan-repository';

/** Recent scans kept per person: the newest 50, none older than 30 days (issue 21, item 4). */
export const RECENT_SCANS_KEPT = 50;
export const RECENT_SCAN_MAX_AGE_MS = 30 * 24 * 60 * 60_000;

/** What the guard reads of a recognised scan (palm-service.ts PalmMatch). */
export interface ScanToGuard {
  userId: string;
  /** The enrolled template the scan matched. */
  templateId: string;
  /** The scan's fused feature protected under the current key: what is remembered. */
  scanTemplate: ProtectedTemplate;
  /** The scan as the guard compares it (packages/palm/src/replay.ts), current key. */
  replayScan: Pick<ReplayScan, 'closestDistance'>;
}

/**
 * A scan copied from an earlier one. Payments answer the receiver as for a palm nobody owns (the attacker is
 * not told the palm matched), count it as a failed scan and tell the payer.
 */
export class ReplayRefusedError extends Error {
  constructor(readonly userId: string) {
    super('palm scan refused as a replay of an earlier scan');
    this.name = 'ReplayRefusedError';
  }
}

/**
 * The replay guard (decision 025): a live recapture of a palm is never as close to an earlier scan as a copy
 * of its frames. Each person's recent scans are kept as protected templates, sealed at rest like
 * palm_templates; a new scan closer than REPLAY_MAX_DISTANCE to one of them, or to the enrolled template it
 * matched, is refused. Everything runs in the payment's transaction: a payment rolled back remembers nothing
 * (one the ledger refuses, for want of funds, is committed and remembered), and one person's checks are
 * serialised so two copies sent at once cannot both pass.
 * Only templates of the current key are compared (others cannot be); a key rotation starts afresh.
 */
export class ReplayGuard {
  constructor(
    private readonly db: Kysely<Schema>,
    private readonly keys: PalmKeys,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Does the scan's expensive part (re-filtering the moved versions of its frames) before the payment's
   * transaction, against the stored templates as they are now, so the check inside the transaction mostly
   * finds its versions made and holds the person's lock (and, on PGlite, the one connection) only briefly.
   */
  async prepare(scan: ScanToGuard): Promise<void> {
    const templates = await this.#templates(new RecentScanRepository(this.db), scan);
    scan.replayScan.closestDistance(templates, REPLAY_MAX_DISTANCE);
  }

  /** Whether the scan is a copy of one of the person's recent scans or of the enrolled template it matched. */
  async check(trx: Transaction<Schema>, scan: ScanToGuard): Promise<boolean> {
    const templates = await this.#templates(new RecentScanRepository(trx), scan);
    const closest = scan.replayScan.closestDistance(templates, REPLAY_MAX_DISTANCE);
    return closest !== undefined && isReplayDistance(closest);
  }

  /** The person's recent scans and the enrolled template the scan matched, those of the current key. */
  async #templates(repository: RecentScanRepository, scan: ScanToGuard): Promise<ProtectedTemplate[]> {
    const key = this.keys.current;
    const since = new Date(this.now() - RECENT_SCAN_MAX_AGE_MS);
    const stored = await repository.recent(scan.userId, key.keyIdHex, since, RECENT_SCANS_KEPT);
    const templates = stored.map((row) => unseal(key, row, 'palm recent scan'));
    const enrolled = await repository.enrolled(scan.userId, scan.templateId);
    if (enrolled && enrolled.keyId === key.keyIdHex) templates.push(unseal(key, enrolled, 'palm template'));
    return templates;
  }

  /** Keeps the scan's template among the person's recent scans, pruning the oldest beyond the limits. */
  async remember(trx: Transaction<Schema>, userId: string, template: ProtectedTemplate): Promise<void> {
    const key = this.keys.current;
    if (Buffer.from(template.keyId).toString('hex') !== key.keyIdHex) {
      throw new Error('a recent scan must be protected under the current key');
    }
    const repository = new RecentScanRepository(trx);
    const id = randomUUID();
    const now = this.now();
    await repository.insert({
      id,
      userId,
      keyId: key.keyIdHex,
      sealed: seal(key.sealKey, serializeTemplate(template), `palm recent scan ${id}`),
      createdAt: new Date(now),
    });
    await repository.prune(userId, new Date(now - RECENT_SCAN_MAX_AGE_MS), RECENT_SCANS_KEPT);
  }

  /**
   * The payment's guard step: refuses a replay (ReplayRefusedError), and otherwise remembers the scan, so
   * the same frames cannot pay twice even when this payment is refused by the ledger (the refusal is
   * committed with it). Runs under the person's palm payment lock, which the payment's guard takes first
   * (take-palm-payment.ts): a second payment with a copy of the same scan waits until the first has
   * remembered it (or rolled back).
   */
  async refuseReplay(trx: Transaction<Schema>, scan: ScanToGuard): Promise<void> {
    if (await this.check(trx, scan)) throw new ReplayRefusedError(scan.userId);
    await this.remember(trx, scan.userId, scan.scanTemplate);
  }
}

function unseal(
  key: PalmKey,
  row: SealedScan,
  context: 'palm recent scan' | 'palm template',
): ProtectedTemplate {
  const bytes = open(key.sealKey, row.sealed, `${context} ${row.id}`);
  if (!bytes) throw new Error(`${context} ${row.id} does not open under its key`);
  return parseTemplate(new Uint8Array(bytes));
}
