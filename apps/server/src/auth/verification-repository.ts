import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import type { TransferBinding } from './otp';

/** Records a verified address; only the token's hash is stored. */
export async function insertVerification(
  db: Kysely<Schema>,
  verification: {
    tokenHash: string;
    identifier: string;
    purpose: 'registration' | 'transfer';
    sessionId: string | null;
    /** What a bound transfer code approved: the verification pays only that transfer. */
    binding?: TransferBinding | undefined;
    expiresAt: Date;
  },
): Promise<void> {
  await db
    .insertInto('verifications')
    .values({
      token_hash: verification.tokenHash,
      identifier: verification.identifier,
      purpose: verification.purpose,
      session_id: verification.sessionId,
      transfer_amount_paise: verification.binding?.amountPaise ?? null,
      transfer_receiver: verification.binding?.receiver ?? null,
      expires_at: verification.expiresAt,
    })
    .execute();
}

/**
 * Spends the live registration verification of this token for one of `identifiers`, and returns the verified
 * address; undefined when there is none or it was spent before. Call inside the transaction that uses it.
 */
export async function spendRegistrationVerification(
  trx: Kysely<Schema>,
  input: { tokenHash: string; identifiers: string[]; now: Date },
): Promise<{ identifier: string } | undefined> {
  if (input.identifiers.length === 0) return undefined;
  const verified = await trx
    .selectFrom('verifications')
    .select(['id', 'identifier'])
    .where('token_hash', '=', input.tokenHash)
    .where('purpose', '=', 'registration')
    .where('expires_at', '>', input.now)
    .where('identifier', 'in', input.identifiers)
    .executeTakeFirst();
  if (!verified) return undefined;
  // Spent once (migration 015): a token spent before, or by a signup racing with this one (the insert
  // waits for it), has its spend row already, and the insert writes nothing.
  const spent = await trx
    .insertInto('verification_spends')
    .values({ verification_id: verified.id })
    .onConflict((conflict) => conflict.column('verification_id').doNothing())
    .returning('verification_id')
    .executeTakeFirst();
  return spent ? { identifier: verified.identifier } : undefined;
}
