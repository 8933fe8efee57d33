import { sql, type Kysely, type Transaction } from 'kysely';
import type { Schema } from '../db/schema';

/** A transfer's claim on one verified code of its session. */
export interface VerificationClaim {
  sessionId: string;
  purpose: 'transfer';
  /** Verifications made before this instant have expired. */
  createdAfter: Date;
  /**
   * The transfer's amount and receiver (its normalized email or phone): a verification bound to a transfer
   * (issue 23) pays only one that matches both. Without them, only unbound verifications are spent.
   */
  transfer?: { amountPaise: bigint; receiver: string } | undefined;
}

/**
 * Spends, for each session (distinct), its newest unspent verification of the purpose made after
 * `createdAfter` that is unbound or bound to the claim's transfer (same amount, same receiver), provided the session is live and its user has no password change pending. Spending inserts
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
                           ${claims.map((c) => c.createdAfter.toISOString())}::timestamptz[],
                           ${claims.map((c) => c.transfer?.amountPaise.toString() ?? null)}::bigint[],
                           ${claims.map((c) => c.transfer?.receiver ?? null)}::text[])
        AS w(session_id, purpose, created_after, amount_paise, receiver)
    ), chosen AS (
      SELECT DISTINCT ON (w.session_id) c.id, w.session_id
      FROM wanted w
      JOIN sessions s ON s.id = w.session_id AND s.revoked_at IS NULL AND s.expires_at > now()
      JOIN users u ON u.id = s.user_id AND NOT u.must_change_password
      CROSS JOIN LATERAL (
        SELECT v.id, v.created_at
        FROM verifications v
        WHERE v.session_id = w.session_id AND v.purpose = w.purpose AND v.created_at > w.created_after
          AND (v.transfer_amount_paise IS NULL
               OR (v.transfer_amount_paise = w.amount_paise AND v.transfer_receiver = w.receiver))
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
 * Whether the claim's session holds an unspent verification of the purpose made after `createdAfter`, unbound
 * or bound to the claim's transfer: what
 * spending one would find (a read only; the spend itself happens in the transfer's transaction).
 */
export async function hasUnspentVerification(db: Kysely<Schema>, claim: VerificationClaim): Promise<boolean> {
  const row = await db
    .selectFrom('verifications as v')
    .select('v.id')
    .where('v.session_id', '=', claim.sessionId)
    .where('v.purpose', '=', claim.purpose)
    .where('v.created_at', '>', claim.createdAfter)
    .where(({ or, and, eb }) => {
      const unbound = eb('v.transfer_amount_paise', 'is', null);
      const { transfer } = claim;
      if (!transfer) return unbound;
      return or([
        unbound,
        and([
          eb('v.transfer_amount_paise', '=', transfer.amountPaise),
          eb('v.transfer_receiver', '=', transfer.receiver),
        ]),
      ]);
    })
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
