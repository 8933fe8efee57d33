import type { Kysely, Transaction } from 'kysely';
import type { Schema } from '../db/schema';

/** A stored recent scan: its sealed protected template and the key it was made under. */
export interface SealedScan {
  id: string;
  keyId: string;
  sealed: Uint8Array;
}

/**
 * Each person's recent palm scans (migration 022) and, for the replay guard, their enrolled templates. Every
 * query runs in the caller's transaction: the palm payment's (ledger transfer) or the erasure's.
 */
export class RecentScanRepository {
  constructor(private readonly db: Kysely<Schema> | Transaction<Schema>) {}

  /** The person's scans of this key made after `since`, the newest first, at most `limit`. */
  async recent(userId: string, keyId: string, since: Date, limit: number): Promise<SealedScan[]> {
    const rows = await this.db
      .selectFrom('palm_recent_scans')
      .select(['id', 'key_id', 'sealed_template'])
      .where('user_id', '=', userId)
      .where('key_id', '=', keyId)
      .where('created_at', '>', since)
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ id: row.id, keyId: row.key_id, sealed: row.sealed_template }));
  }

  /** The person's enrolled template that a scan matched. */
  async enrolled(userId: string, templateId: string): Promise<SealedScan | undefined> {
    const row = await this.db
      .selectFrom('palm_templates')
      .select(['id', 'key_id', 'sealed_template'])
      .where('id', '=', templateId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row && { id: row.id, keyId: row.key_id, sealed: row.sealed_template };
  }

  async insert(scan: SealedScan & { userId: string; createdAt: Date }): Promise<void> {
    await this.db
      .insertInto('palm_recent_scans')
      .values({
        id: scan.id,
        user_id: scan.userId,
        key_id: scan.keyId,
        sealed_template: scan.sealed,
        created_at: scan.createdAt,
      })
      .execute();
  }

  /** Deletes the person's scans made at or before `before`, and all but the newest `keep`. */
  async prune(userId: string, before: Date, keep: number): Promise<void> {
    await this.db
      .deleteFrom('palm_recent_scans')
      .where('user_id', '=', userId)
      .where((eb) =>
        eb.or([
          eb('created_at', '<=', before),
          eb(
            'id',
            'not in',
            eb
              .selectFrom('palm_recent_scans')
              .select('id')
              .where('user_id', '=', userId)
              .orderBy('created_at', 'desc')
              .orderBy('id', 'desc')
              .limit(keep),
          ),
        ]),
      )
      .execute();
  }

  /** Erasure: every recent scan of the person. */
  async deleteAll(userId: string): Promise<void> {
    await this.db.deleteFrom('palm_recent_scans').where('user_id', '=', userId).execute();
  }
}
