import type { Receipt } from '@hasta/tlog/receipt';
import type { UserRole } from '../db/schema';
import { AppError } from '../lib/app-error';
import type { LogDeps } from './log-deps';
import { concernsUser } from './receipt-repository';

/**
 * The receipt of a transaction or consent event, to check offline. Only the people it concerns (or an admin)
 * may fetch it; to anyone else it does not exist. Not ready until the log has sequenced it.
 */
export async function readReceipt(
  deps: LogDeps,
  input: { refId: string; viewer: { id: string; role: UserRole } },
): Promise<Receipt> {
  const { refId, viewer } = input;
  if (viewer.role !== 'admin' && !(await concernsUser(deps.db, refId, viewer.id)))
    throw AppError.of('NOT_FOUND', 'transactionNotFound');
  const receipt = await deps.log.receiptFor(refId);
  if (!receipt) throw AppError.of('NOT_FOUND', 'receiptNotReady');
  return receipt;
}
