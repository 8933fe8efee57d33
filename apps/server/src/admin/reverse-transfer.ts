import type { RewardsBook } from '../rewards/rewards-book';
import { LedgerError } from '@hasta/ledger/rules';
import { isUniqueViolation } from '../db/errors';
import type { Ledger } from '../ledger/ledger';
import { toAppError } from '../ledger/ledger-errors';
import { AppError } from '../lib/app-error';
import type { TransferReversalRepository } from './transfer-reversal-repository';

/**
 * An admin's deletion of a transfer (spec: delete transaction): a new transfer moves the amount back, the
 * original stays in the trail. A transfer is reversed once at most; a reversal that would overdraw the
 * receiver is refused.
 */
export async function reverseTransfer(
  deps: {
    ledger: Pick<Ledger, 'transfer' | 'limits'>;
    transfers: Pick<TransferReversalRepository, 'findReversible' | 'isReversed'>;
    /** A reversed palm payment's points go back in the reversal's transaction (issue 24). */
    rewards: Pick<RewardsBook, 'paymentReversed'>;
  },
  input: { adminId: string; transferId: string },
): Promise<{ reversalId: string }> {
  const { ledger, transfers } = deps;
  const original = await transfers.findReversible(input.transferId);
  if (!original) throw AppError.of('NOT_FOUND', 'transactionNotFound');
  if (await transfers.isReversed(original.id)) throw AppError.of('CONFLICT', 'transactionAlreadyReversed');
  try {
    const reversal = await ledger.transfer({
      id: crypto.randomUUID(),
      debitAccountId: original.creditAccountId,
      creditAccountId: original.debitAccountId,
      amountPaise: original.amountPaise,
      kind: 'reversal',
      reversesId: original.id,
      initiatedBy: input.adminId,
      onRecorded: (trx) => deps.rewards.paymentReversed(trx, original.id),
    });
    return { reversalId: reversal.id };
  } catch (error) {
    if (error instanceof LedgerError && error.code === 'insufficient_funds') {
      throw AppError.of('CONFLICT', 'reversalWouldOverdraw');
    }
    // Two admins deleting at once: the unique reverses_id lets one through.
    if (isUniqueViolation(error)) throw AppError.of('CONFLICT', 'transactionAlreadyReversed');
    throw toAppError(error, ledger.limits);
  }
}
