import { redeemMinimumMessage, redeemWholeRupeesMessage } from '@hasta/contracts/messages';
import type { RedeemResult } from '@hasta/contracts/rewards';
import { paiseToRupeesText } from '@hasta/ledger/money';
import { LedgerError } from '@hasta/ledger/rules';
import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import type { RewardsConfig } from '../env';
import {
  POINTS_ACCOUNT_ID,
  REWARDS_EXPENSE_ACCOUNT_ID,
  inLedgerTransaction,
  uuidFromText,
  type Ledger,
} from '../ledger/ledger';
import { toAppError } from '../ledger/ledger-errors';
import { listTransfers, toTransactionRecord } from '../ledger/queries';
import { AppError } from '../lib/app-error';
import { addRewardEntry } from './rewards-repository';
import { pointsBalance } from './show-rewards';

export interface RedeemDeps {
  db: Kysely<Schema>;
  ledger: Pick<
    Ledger,
    'ensurePointsAccount' | 'ensureUserAccount' | 'transferWithin' | 'account' | 'limits' | 'now'
  >;
  config: RewardsConfig;
}

/**
 * Points to wallet rupees at the configured rate (4 points = ₹1 by default), in whole rupees, from the
 * configured minimum (100 points): one transaction of two ledger transfers, the rupees from the rewards
 * expense account into the wallet (rupee accounts first, the lock order of every rewards write) and the
 * points back to the programme. A retried Idempotency-Key answers the same redemption; more points than the
 * balance refuses both.
 */
export async function redeemPoints(
  deps: RedeemDeps,
  input: { userId: string; points: number; idempotencyKey: string | undefined },
): Promise<RedeemResult> {
  const { config } = deps;
  if (!Number.isSafeInteger(input.points) || input.points < config.redeemMinPoints)
    throw new AppError('BAD_REQUEST', redeemMinimumMessage(config.redeemMinPoints));
  if (input.points % config.pointsPerRupee !== 0)
    throw new AppError('BAD_REQUEST', redeemWholeRupeesMessage(config.pointsPerRupee));
  const amountPaise = BigInt(input.points / config.pointsPerRupee) * 100n;
  const base = input.idempotencyKey
    ? `redeem:${input.userId}:${input.idempotencyKey}`
    : `redeem:${input.userId}:${crypto.randomUUID()}`;
  const wallet = await deps.ledger.ensureUserAccount(input.userId);
  const rupeesId = uuidFromText(`${base}:rupees`);
  try {
    await inLedgerTransaction(deps.db, async (trx) => {
      const pointsAccount = await deps.ledger.ensurePointsAccount(input.userId, trx);
      await deps.ledger.transferWithin(trx, {
        id: rupeesId,
        debitAccountId: REWARDS_EXPENSE_ACCOUNT_ID,
        creditAccountId: wallet,
        amountPaise,
        kind: 'redemption',
        initiatedBy: input.userId,
      });
      const points = await deps.ledger.transferWithin(trx, {
        id: uuidFromText(`${base}:points`),
        debitAccountId: pointsAccount,
        creditAccountId: POINTS_ACCOUNT_ID,
        amountPaise: BigInt(input.points),
        kind: 'redemption',
        initiatedBy: input.userId,
      });
      await addRewardEntry(trx, {
        transferId: points.id,
        userId: input.userId,
        reason: 'redemption',
        points: -BigInt(input.points),
        causeId: rupeesId,
      });
    });
  } catch (error) {
    if (error instanceof LedgerError && error.code === 'insufficient_funds')
      throw AppError.of('BAD_REQUEST', 'insufficientPoints');
    throw toAppError(error, deps.ledger.limits);
  }
  const [view] = await listTransfers(deps.db, { transferId: rupeesId, limit: 1, includeReversed: true });
  if (!view) throw new Error(`redemption ${rupeesId} is missing after it was written`);
  return {
    points_redeemed: input.points,
    amount: paiseToRupeesText(amountPaise),
    points: Number(await pointsBalance(deps, input.userId)),
    transaction: toTransactionRecord(view, wallet),
  };
}
