import { randomInt } from 'node:crypto';
import type { RewardReason } from '@hasta/contracts/rewards';
import { sql, type Kysely, type Transaction } from 'kysely';
import { isUniqueViolation } from '../db/errors';
import type { Schema } from '../db/schema';
import { POINTS_ACCOUNT_ID, REWARDS_EXPENSE_ACCOUNT_ID } from '../ledger/ledger';

type Db = Kysely<Schema> | Transaction<Schema>;

/** The queries of the rewards programme: spend, points entries, referral codes and referrals, totals. */

/**
 * What a person spent at stores in (from, now]: palm payments into a store's account (posted: a single
 * transfer, or a pending one its payer's code posted) and Send Money transfers into one (how a store's QR code
 * is paid), none of them reversed. Payments between two people do not count: two friends paying each other
 * back and forth would otherwise climb the tiers (and earn points) on the same money. `excludeTransferId` leaves one payment out (the one being rewarded: its
 * points go by the tier before it).
 */
export async function spendSince(
  db: Db,
  userId: string,
  options: { from: Date; excludeTransferId?: string | undefined },
): Promise<bigint> {
  const exclude = options.excludeTransferId ? sql`AND t.id <> ${options.excludeTransferId}` : sql``;
  const result = await sql<{ spend: string }>`
    SELECT COALESCE(SUM(t.amount_paise), 0)::text AS spend
    FROM ledger_transfers t
    JOIN ledger_accounts da ON da.id = t.debit_account_id
    JOIN ledger_accounts ca ON ca.id = t.credit_account_id
    WHERE da.user_id = ${userId} AND t.created_at > ${options.from}
      AND t.kind IN ('payment', 'transfer') AND ca.kind = 'merchant'
      AND (t.phase = 'single'
           OR (t.phase = 'pending' AND EXISTS (
             SELECT 1 FROM ledger_transfers p WHERE p.pending_id = t.id AND p.phase = 'post')))
      AND NOT EXISTS (SELECT 1 FROM ledger_transfers r WHERE r.reverses_id = t.id)
      ${exclude}`.execute(db);
  return BigInt(result.rows[0]?.spend ?? '0');
}

export interface RewardEntryView {
  transferId: string;
  reason: RewardReason;
  points: bigint;
  causeId: string | null;
  createdAt: Date;
}

export async function addRewardEntry(
  trx: Transaction<Schema>,
  entry: Omit<RewardEntryView, 'createdAt'> & { userId: string },
): Promise<void> {
  await trx
    .insertInto('reward_entries')
    .values({
      transfer_id: entry.transferId,
      user_id: entry.userId,
      reason: entry.reason,
      points: entry.points,
      cause_id: entry.causeId,
    })
    .onConflict((conflict) => conflict.column('transfer_id').doNothing())
    .execute();
}

/** A person's newest points entries. */
export async function recentRewardEntries(db: Db, userId: string, limit: number): Promise<RewardEntryView[]> {
  const rows = await db
    .selectFrom('reward_entries')
    .select(['transfer_id', 'reason', 'points', 'cause_id', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('transfer_id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    transferId: row.transfer_id,
    reason: row.reason,
    points: BigInt(row.points),
    causeId: row.cause_id,
    createdAt: new Date(row.created_at),
  }));
}

/** The awards a palm payment earned (to take back when it is reversed). */
export async function awardsCausedBy(
  db: Db,
  paymentId: string,
): Promise<Array<{ transferId: string; userId: string; points: bigint }>> {
  const rows = await db
    .selectFrom('reward_entries')
    .select(['transfer_id', 'user_id', 'points'])
    .where('cause_id', '=', paymentId)
    .where('reason', '=', 'palm_payment')
    .execute();
  return rows.map((row) => ({
    transferId: row.transfer_id,
    userId: row.user_id,
    points: BigInt(row.points),
  }));
}

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 8;
const CODE_ATTEMPTS = 5;

function newReferralCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i += 1) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

/** A person's referral code, made on first use (a clash with another's code draws again, a bounded number of times). */
export async function referralCodeOf(
  db: Kysely<Schema>,
  userId: string,
): Promise<{ code: string; shares: number }> {
  for (let attempt = 1; attempt <= CODE_ATTEMPTS; attempt += 1) {
    const found = await db
      .selectFrom('referral_codes')
      .select(['code', 'shares'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (found) return found;
    try {
      await db
        .insertInto('referral_codes')
        .values({ user_id: userId, code: newReferralCode() })
        .onConflict((conflict) => conflict.column('user_id').doNothing())
        .execute();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw new Error(`no referral code could be made for ${userId}`);
}

export async function referrerOfCode(db: Db, code: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('referral_codes')
    .select('user_id')
    .where('code', '=', code)
    .executeTakeFirst();
  return row?.user_id;
}

export async function countShare(db: Db, userId: string): Promise<number> {
  const row = await db
    .updateTable('referral_codes')
    .set((eb) => ({ shares: eb('shares', '+', 1) }))
    .where('user_id', '=', userId)
    .returning('shares')
    .executeTakeFirst();
  return row?.shares ?? 0;
}

/** Records who referred a new account; false when it already has a referrer. */
export async function addReferral(
  db: Db,
  input: { referredUserId: string; referrerUserId: string; now: Date },
): Promise<boolean> {
  const rows = await db
    .insertInto('referrals')
    .values({
      referred_user_id: input.referredUserId,
      referrer_user_id: input.referrerUserId,
      joined_at: input.now,
    })
    .onConflict((conflict) => conflict.column('referred_user_id').doNothing())
    .returning('referred_user_id')
    .execute();
  return rows.length === 1;
}

/** The referral of a person not yet rewarded, locked until the transaction ends; undefined when none. */
export async function unrewardedReferralOf(
  trx: Transaction<Schema>,
  referredUserId: string,
): Promise<{ referrerUserId: string } | undefined> {
  const row = await trx
    .selectFrom('referrals')
    .select('referrer_user_id')
    .where('referred_user_id', '=', referredUserId)
    .where('rewarded_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
  return row ? { referrerUserId: row.referrer_user_id } : undefined;
}

export async function markReferralRewarded(
  trx: Transaction<Schema>,
  referredUserId: string,
  now: Date,
): Promise<void> {
  await trx
    .updateTable('referrals')
    .set({ rewarded_at: now })
    .where('referred_user_id', '=', referredUserId)
    .execute();
}

export async function referralCounts(
  db: Db,
  referrerUserId: string,
): Promise<{ joined: number; rewarded: number }> {
  const row = await db
    .selectFrom('referrals')
    .select((eb) => [
      eb.fn.countAll<string>().as('joined'),
      eb.fn.count<string>('rewarded_at').as('rewarded'),
    ])
    .where('referrer_user_id', '=', referrerUserId)
    .executeTakeFirstOrThrow();
  return { joined: Number(row.joined), rewarded: Number(row.rewarded) };
}

/** When the account was made (a referral is named by a new account only). */
export async function accountCreatedAt(db: Db, userId: string): Promise<Date | undefined> {
  const row = await db.selectFrom('users').select('created_at').where('id', '=', userId).executeTakeFirst();
  return row ? new Date(row.created_at) : undefined;
}

/** The programme's totals for the admin's summary. */
export async function rewardsTotals(db: Db): Promise<{
  awarded: bigint;
  redeemed: bigint;
  takenBack: bigint;
  outstanding: bigint;
  rupeesPaidPaise: bigint;
  referralsJoined: number;
  referralsRewarded: number;
}> {
  const totals = await sql<{ awarded: string; redeemed: string; taken_back: string }>`
    SELECT COALESCE(SUM(points) FILTER (WHERE points > 0), 0)::text AS awarded,
           COALESCE(-SUM(points) FILTER (WHERE reason = 'redemption'), 0)::text AS redeemed,
           COALESCE(-SUM(points) FILTER (WHERE reason = 'take_back'), 0)::text AS taken_back
    FROM reward_entries`.execute(db);
  const accounts = await sql<{ outstanding: string; paid: string }>`
    SELECT (SELECT debits_posted - credits_posted FROM ledger_accounts WHERE id = ${POINTS_ACCOUNT_ID})::text AS outstanding,
           (SELECT debits_posted - credits_posted FROM ledger_accounts WHERE id = ${REWARDS_EXPENSE_ACCOUNT_ID})::text AS paid`.execute(
    db,
  );
  const referrals = await sql<{ joined: string; rewarded: string }>`
    SELECT COUNT(*)::text AS joined, COUNT(rewarded_at)::text AS rewarded FROM referrals`.execute(db);
  const t = totals.rows[0]!;
  const a = accounts.rows[0]!;
  const r = referrals.rows[0]!;
  return {
    awarded: BigInt(t.awarded),
    redeemed: BigInt(t.redeemed),
    takenBack: BigInt(t.taken_back),
    outstanding: BigInt(a.outstanding ?? '0'),
    rupeesPaidPaise: BigInt(a.paid ?? '0'),
    referralsJoined: Number(r.joined),
    referralsRewarded: Number(r.rewarded),
  };
}

/** People's spend by palm and at stores since `from`, for counting the members of each tier. */
export async function spendsSince(db: Db, from: Date): Promise<bigint[]> {
  const result = await sql<{ spend: string }>`
    SELECT SUM(t.amount_paise)::text AS spend
    FROM ledger_transfers t
    JOIN ledger_accounts da ON da.id = t.debit_account_id
    JOIN ledger_accounts ca ON ca.id = t.credit_account_id
    WHERE da.user_id IS NOT NULL AND t.created_at > ${from}
      AND t.kind IN ('payment', 'transfer') AND ca.kind = 'merchant'
      AND (t.phase = 'single'
           OR (t.phase = 'pending' AND EXISTS (
             SELECT 1 FROM ledger_transfers p WHERE p.pending_id = t.id AND p.phase = 'post')))
      AND NOT EXISTS (SELECT 1 FROM ledger_transfers r WHERE r.reverses_id = t.id)
    GROUP BY da.user_id`.execute(db);
  return result.rows.map((row) => BigInt(row.spend));
}

/** Each listed person's points balance and spend since `from` (the admin's Users tab). */
export async function rewardsOfUsers(
  db: Db,
  userIds: readonly string[],
  from: Date,
): Promise<Map<string, { points: bigint; spendPaise: bigint }>> {
  const found = new Map<string, { points: bigint; spendPaise: bigint }>();
  if (userIds.length === 0) return found;
  const rows = await sql<{ user_id: string; points: string; spend: string }>`
    SELECT u.id AS user_id,
           COALESCE((SELECT p.credits_posted - p.debits_posted FROM ledger_accounts p
                     WHERE p.points_user_id = u.id), 0)::text AS points,
           COALESCE((SELECT SUM(t.amount_paise)
                     FROM ledger_transfers t
                     JOIN ledger_accounts da ON da.id = t.debit_account_id
                     JOIN ledger_accounts ca ON ca.id = t.credit_account_id
                     WHERE da.user_id = u.id AND t.created_at > ${from}
                       AND t.kind IN ('payment', 'transfer') AND ca.kind = 'merchant'
                       AND (t.phase = 'single'
                            OR (t.phase = 'pending' AND EXISTS (
                              SELECT 1 FROM ledger_transfers p WHERE p.pending_id = t.id AND p.phase = 'post')))
                       AND NOT EXISTS (SELECT 1 FROM ledger_transfers r WHERE r.reverses_id = t.id)), 0)::text AS spend
    FROM users u WHERE u.id = ANY(${[...userIds]}::uuid[])`.execute(db);
  for (const row of rows.rows)
    found.set(row.user_id, { points: BigInt(row.points), spendPaise: BigInt(row.spend) });
  return found;
}

/** Whether a transfer went into a store's account (a purchase: what earns points and pays referrals). */
export async function paidIntoStore(db: Db, transferId: string): Promise<boolean> {
  const row = await db
    .selectFrom('ledger_transfers as t')
    .innerJoin('ledger_accounts as ca', 'ca.id', 't.credit_account_id')
    .select('ca.kind')
    .where('t.id', '=', transferId)
    .executeTakeFirst();
  return row?.kind === 'merchant';
}
