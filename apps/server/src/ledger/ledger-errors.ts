import { amountMinimumMessage, balanceLimitMessage, type MessageKey } from '@hasta/contracts/messages';
import { formatInr, paiseToRupeesText, rupeesNumberToPaise } from '@hasta/ledger/money';
import { LedgerError, type LedgerErrorCode, type LedgerLimits } from '@hasta/ledger/rules';
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
  // Rupees and points never mix: only a bug could ask for it.
  asset_mismatch: { status: 'BAD_REQUEST', key: 'transactionFailed' },
  id_reused: { status: 'CONFLICT', key: 'idempotencyConflict' },
  pending_not_found: { status: 'NOT_FOUND', key: 'transactionNotFound' },
  pending_resolved: { status: 'CONFLICT', key: 'transactionAlreadyReversed' },
  pending_expired: { status: 'CONFLICT', key: 'transactionFailed' },
};

/** A limit as the refusals name it: "₹2,00,000", "₹0.50" (paise only when there are any). */
function limitText(paise: bigint): string {
  return formatInr(paiseToRupeesText(paise), 'en-IN', { paise: 'when-any' });
}

/** An amount over the wallet limit, in the configured limit's words. */
export function balanceLimitError(limits: LedgerLimits): AppError {
  return new AppError('BAD_REQUEST', balanceLimitMessage(limitText(limits.maxBalancePaise)));
}

/**
 * A ledger refusal as the answer people see (spec §5.10 where it has the words); the limits' refusals name
 * the limits this server runs with.
 */
export function toAppError(error: unknown, limits: LedgerLimits): unknown {
  if (!(error instanceof LedgerError)) return error;
  if (error.code === 'balance_limit_exceeded') return balanceLimitError(limits);
  if (error.code === 'amount_invalid' && limits.minAmountPaise > 1n)
    return new AppError('BAD_REQUEST', amountMinimumMessage(limitText(limits.minAmountPaise)));
  const mapped = LEDGER_ERRORS[error.code];
  return AppError.of(mapped.status, mapped.key);
}

/** More rupee digits than any amount can have (money.ts keeps 12): such an amount is over every limit. */
const TOO_LARGE_RUPEES = 1e12;

/**
 * A rupee amount as typed (a JSON number) in paise: at most 2 decimals and above zero. The ledger checks the
 * limits; an amount too large to be one (over 12 rupee digits) is refused here in the limit's words.
 */
export function paiseOf(amount: number, limits: LedgerLimits): bigint {
  const paise = rupeesNumberToPaise(amount);
  if (paise === null) {
    if (Math.abs(amount) >= TOO_LARGE_RUPEES) throw balanceLimitError(limits);
    throw AppError.of('BAD_REQUEST', 'amountTooPrecise');
  }
  if (paise <= 0n) throw AppError.of('BAD_REQUEST', 'amountPositive');
  return paise;
}
