import type { MessageKey } from '@hasta/contracts/messages';
import { rupeesNumberToPaise } from '@hasta/ledger/money';
import { LedgerError, type LedgerErrorCode } from '@hasta/ledger/rules';
import { AppError } from '../lib/app-error';

const LEDGER_ERRORS: Record<
  LedgerErrorCode,
  { status: 'BAD_REQUEST' | 'CONFLICT' | 'NOT_FOUND'; key: MessageKey }
> = {
  amount_invalid: { status: 'BAD_REQUEST', key: 'amountPositive' },
  same_account: { status: 'BAD_REQUEST', key: 'selfSendEmail' },
  account_not_found: { status: 'NOT_FOUND', key: 'receiverNotFound' },
  insufficient_funds: { status: 'BAD_REQUEST', key: 'insufficientFunds' },
  balance_limit_exceeded: { status: 'BAD_REQUEST', key: 'balanceLimitExceeded' },
  id_reused: { status: 'CONFLICT', key: 'idempotencyConflict' },
  pending_not_found: { status: 'NOT_FOUND', key: 'transactionNotFound' },
  pending_resolved: { status: 'CONFLICT', key: 'transactionAlreadyReversed' },
  pending_expired: { status: 'CONFLICT', key: 'transactionFailed' },
};

/** A ledger refusal as the answer people see (spec §5.10 where it has the words). */
export function toAppError(error: unknown): unknown {
  if (!(error instanceof LedgerError)) return error;
  const mapped = LEDGER_ERRORS[error.code];
  return AppError.of(mapped.status, mapped.key);
}

/** A rupee amount as typed (a JSON number) in paise: at most 2 decimals, above zero. */
export function paiseOf(amount: number): bigint {
  const paise = rupeesNumberToPaise(amount);
  if (paise === null) throw AppError.of('BAD_REQUEST', 'amountTooPrecise');
  if (paise <= 0n) throw AppError.of('BAD_REQUEST', 'amountPositive');
  return paise;
}
