import { KIOSK_REGISTRATION_BONUS_POINTS } from '@hasta/contracts/constants';
import type { RewardReason } from '@hasta/contracts/rewards';
import { availableOf } from '@hasta/ledger/rules';
import type { Kysely, Transaction } from 'kysely';
import type { Schema } from '../db/schema';
import type { RewardsConfig } from '../env';
import { POINTS_ACCOUNT_ID, inLedgerTransaction, toState, uuidFromText, type Ledger } from '../ledger/ledger';
import {
  addRewardEntry,
  awardsCausedBy,
  markReferralRewarded,
  paidIntoStore,
  spendSince,
  unrewardedReferralOf,
} from './rewards-repository';
import { pointsPerPayment, tierFor, tierWindowStart } from './rewards-rules';

/**
 * The programme's writes, each a points transfer on the ledger made inside the transaction of what caused it
 * (a palm payment, its reversal, an enrolment), with an id derived from that cause and the rule: a cause
 * replayed writes nothing new, and a rule pays a cause once.
 *
 * Lock order: the caller's transaction has already locked the rupee accounts of its payment; the points
 * accounts are locked after them (every rewards write takes rupees first, then points), so two writers never
 * wait on each other in a cycle.
 */
export class RewardsBook {
  constructor(
    private readonly ledger: Pick<Ledger, 'ensurePointsAccount' | 'transferWithin' | 'now'>,
    readonly config: RewardsConfig,
  ) {}

  /** Points `userId` may spend now, read inside `trx`. */
  async #available(trx: Transaction<Schema>, accountId: string): Promise<bigint> {
    const row = await trx
      .selectFrom('ledger_accounts')
      .selectAll()
      .where('id', '=', accountId)
      .executeTakeFirstOrThrow();
    return availableOf(toState(row));
  }

  async #award(
    trx: Transaction<Schema>,
    award: { id: string; userId: string; points: number; reason: RewardReason; causeId: string | null },
  ): Promise<void> {
    if (!Number.isSafeInteger(award.points) || award.points <= 0)
      throw new Error(`an award of ${award.points} points`);
    const account = await this.ledger.ensurePointsAccount(award.userId, trx);
    const transfer = await this.ledger.transferWithin(trx, {
      id: award.id,
      debitAccountId: POINTS_ACCOUNT_ID,
      creditAccountId: account,
      amountPaise: BigInt(award.points),
      kind: 'reward',
    });
    await addRewardEntry(trx, {
      transferId: transfer.id,
      userId: award.userId,
      reason: award.reason,
      points: BigInt(award.points),
      causeId: award.causeId,
    });
  }

  /**
   * A palm payment moved the payer's money (in its transaction). Into a store (a purchase), the payer earns
   * the points of the tier they held before this payment (spec §9: 5 / 10 / 20 for Silver / Gold / Platinum,
   * none below Silver), and a referral waiting for this person's first purchase pays out. A payment to another
   * person earns nothing: two people paying each other back and forth would mint points from nothing.
   */
  async palmPaymentMade(
    trx: Transaction<Schema>,
    payment: { paymentId: string; payerUserId: string },
  ): Promise<void> {
    if (!(await paidIntoStore(trx, payment.paymentId))) return;
    const now = this.ledger.now();
    const spend = await spendSince(trx, payment.payerUserId, {
      from: tierWindowStart(now),
      excludeTransferId: payment.paymentId,
    });
    const points = pointsPerPayment(tierFor(spend));
    if (points > 0) {
      await this.#award(trx, {
        id: uuidFromText(`reward:palm-payment:${payment.paymentId}`),
        userId: payment.payerUserId,
        points,
        reason: 'palm_payment',
        causeId: payment.paymentId,
      });
    }
    await this.firstPaymentMade(trx, payment.payerUserId);
  }

  /**
   * A purchase of `userId` at a store (by palm or QR code): if someone referred them and the referral has not
   * paid out, it pays REWARDS_REFERRAL_BONUS_POINTS to each of the two, once (the referral row is locked and
   * marked). Only a purchase: accounts made with one's own code, each paying a friend, would otherwise each
   * bring both bonuses.
   */
  async firstPaymentMade(trx: Transaction<Schema>, userId: string): Promise<void> {
    const referral = await unrewardedReferralOf(trx, userId);
    if (!referral) return;
    await markReferralRewarded(trx, userId, this.ledger.now());
    const points = this.config.referralBonusPoints;
    if (points === 0) return;
    // Rupee-side locks are the caller's; the two points accounts are locked in id order by the ledger, each
    // transfer on its own (a system account and one person), so no cycle either way.
    await this.#award(trx, {
      id: uuidFromText(`reward:referral:${userId}:referred`),
      userId,
      points,
      reason: 'referral',
      causeId: referral.referrerUserId,
    });
    await this.#award(trx, {
      id: uuidFromText(`reward:referral:${userId}:referrer`),
      userId: referral.referrerUserId,
      points,
      reason: 'referral',
      causeId: userId,
    });
  }

  /**
   * A Send Money payment into a store (how a store's QR code is paid) was committed by the group-commit path:
   * a referral waiting for this person's first payment pays out, in a transaction of its own right after
   * (the batch's transaction is shared with other people's transfers). Idempotent: if this fails, the
   * referral stays unpaid and the person's next payment pays it.
   */
  async storePaymentMade(db: Kysely<Schema>, userId: string): Promise<void> {
    await inLedgerTransaction(db, (trx) => this.firstPaymentMade(trx, userId));
  }

  /**
   * A palm payment was reversed (an admin's delete, a refunded dispute), in the reversal's transaction: the
   * points it earned go back. Points already redeemed cannot be: what is left of the award is taken (never
   * below zero), and the rest stays spent. The take-back's id is derived from the award, so once.
   */
  async paymentReversed(trx: Transaction<Schema>, paymentId: string): Promise<void> {
    for (const award of await awardsCausedBy(trx, paymentId)) {
      const account = await this.ledger.ensurePointsAccount(award.userId, trx);
      const available = await this.#available(trx, account);
      const points = award.points < available ? award.points : available;
      if (points <= 0n) continue;
      const transfer = await this.ledger.transferWithin(trx, {
        id: uuidFromText(`reward:take-back:${award.transferId}`),
        debitAccountId: account,
        creditAccountId: POINTS_ACCOUNT_ID,
        amountPaise: points,
        kind: 'reversal',
        reversesId: award.transferId,
      });
      await addRewardEntry(trx, {
        transferId: transfer.id,
        userId: award.userId,
        reason: 'take_back',
        points: -points,
        causeId: award.transferId,
      });
    }
  }

  /**
   * A palm enrolled with the help of staff (the admin-assisted enrolment, approved by its owner): the kiosk
   * registration bonus (spec §1, §9: 100 points), once per person whatever hands or times.
   */
  async kioskEnrolment(trx: Transaction<Schema>, userId: string): Promise<void> {
    await this.#award(trx, {
      id: uuidFromText(`reward:kiosk-bonus:${userId}`),
      userId,
      points: KIOSK_REGISTRATION_BONUS_POINTS,
      reason: 'kiosk_bonus',
      causeId: null,
    });
  }
}
