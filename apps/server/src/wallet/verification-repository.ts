import { sql, type Kysely, type Transaction } from 'kysely';
import type { Schema } from '../db/schema';

/** A transfer's claim on one verified code of its session. */
export interface VerificationClaim {
  sessionId: string;
  purpose: 'transfer';
  /** Verifications made before this instant have expired. */
  createdAfter: Date;
}

/**
 * Spends, for each session (distinct), its newest unspent verification of the purpose made after
 * `createdAfter`, provided the session is live and its user has no password change pending. Spending inserts
 * the verification's id into `verification_spends` (decision 019): a spend made at the same time by another
 * transaction makes the insert wait for it, then do nothing if it committed, so a verification is spent once.
 * Answers the sessions that spent one.
 */
export async function spendNewestVerifications(
  trx: Transaction<Schema>,
  claims: readonly VerificationClaim[],
): Promise<Set<string>> {
  if (claims.length === 0) return new Set();
  if (new Set(claims.map((c) => c.sessionId)).size !== claims.length)
    throw new Error('one spend per session at a time');
  const result = await sql<{ session_id: string }>`
    WITH wanted AS (
      SELECT * FROM unnest(${claims.map((c) => c.sessionId)}::uuid[], ${claims.map((c) => c.purpose)}::text[],
                           ${claims.map((c) => c.createdAfter.toISOString())}::timestamptz[])
        AS w(session_id, purpose, created_after)
    ), chosen AS (
      SELECT DISTINCT ON (w.session_id) c.id, w.session_id
      FROM wanted w
      JOIN sessions s ON s.id = w.session_id AND s.revoked_at IS NULL AND s.expires_at > now()
      JOIN users u ON u.id = s.user_id AND NOT u.must_change_password
      CROSS JOIN LATERAL (
        SELECT v.id, v.created_at
        FROM verifications v
        WHERE v.session_id = w.session_id AND v.purpose = w.purpose AND v.created_at > w.created_after
          AND NOT EXISTS (SELECT 1 FROM verification_spends x WHERE x.verification_id = v.id)
        ORDER BY v.created_at DESC
        LIMIT 1
      ) AS c
      ORDER BY w.session_id, c.created_at DESC
    ), spent AS (
      INSERT INTO verification_spends (verification_id)
      SELECT id FROM chosen
      ON CONFLICT (verification_id) DO NOTHING
      RETURNING verification_id
    )
    SELECT chosen.session_id FROM spent JOIN chosen ON chosen.id = spent.verification_id`.execute(trx);
  return new Set(result.rows.map((row) => row.session_id));
}

/**
 * Whether the claim's session holds an unspent verification of the purpose made after `createdAfter`: what
 * spending one would find (a read only; the spend itself happens in the transfer's transaction).
 */
export async function hasUnspentVerification(db: Kysely<Schema>, claim: VerificationClaim): Promise<boolean> {
  const row = await db
    .selectFrom('verifications as v')
    .select('v.id')
    .where('v.session_id', '=', claim.sessionId)
    .where('v.purpose', '=', claim.purpose)
    .where('v.created_at', '>', claim.createdAfter)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('verification_spends as x')
            .select('x.verification_id')
            .whereRef('x.verification_id', '=', 'v.id'),
        ),
      ),
    )
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
