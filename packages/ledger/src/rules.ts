/**
 * The ledger's rules, free of any database: what a transfer may do to two accounts. The server applies the
 * same rules inside a transaction with the accounts locked; the reference model applies them in memory.
 */

export type AccountKind = 'user' | 'merchant' | 'system' | 'points';

/**
 * What an account holds: rupees (in paise) or reward points (whole points). A transfer moves one asset; the
 * rupee limits (minimum amount, balance ceiling) are for rupees only.
 */
export type Asset = 'inr' | 'points';

export type TransferKind =
  | 'issuance'
  | 'transfer'
  | 'payment'
  | 'reversal'
  | 'payout'
  /** Points awarded (a palm payment, the kiosk bonus, a referral). */
  | 'reward'
  /** Points turned into wallet rupees: the points back to the programme, the rupees from its expense account. */
  | 'redemption';

export interface AccountState {
  id: string;
  kind: AccountKind;
  /** Rupees when absent. */
  asset?: Asset | undefined;
  debitsPosted: bigint;
  creditsPosted: bigint;
  debitsPending: bigint;
  creditsPending: bigint;
}

export interface LedgerLimits {
  /** Most a user or merchant account may hold, pending credits included. RBI full-KYC PPI: ₹2,00,000. */
  maxBalancePaise: bigint;
  /** Smallest transfer: ₹0.01. */
  minAmountPaise: bigint;
}

export const DEFAULT_LIMITS: LedgerLimits = { maxBalancePaise: 20_000_000n, minAmountPaise: 1n };

export type LedgerErrorCode =
  | 'amount_invalid'
  | 'same_account'
  | 'account_not_found'
  | 'insufficient_funds'
  | 'balance_limit_exceeded'
  /** The two accounts hold different assets (rupees and points never mix). */
  | 'asset_mismatch'
  | 'id_reused'
  | 'pending_not_found'
  | 'pending_resolved'
  | 'pending_expired';

export class LedgerError extends Error {
  constructor(readonly code: LedgerErrorCode) {
    super(code);
    this.name = 'LedgerError';
  }
}

/** Posted balance: what the account holds. The system issuance account runs negative by design. */
export function balanceOf(account: AccountState): bigint {
  return account.creditsPosted - account.debitsPosted;
}

/** What the account may still spend: posted balance less the money reserved by pending debits. */
export function availableOf(account: AccountState): bigint {
  return account.creditsPosted - account.debitsPosted - account.debitsPending;
}

/** Checks a transfer (single or pending) against both accounts; null when it may go ahead. */
export function checkTransfer(
  debit: AccountState,
  credit: AccountState,
  amountPaise: bigint,
  limits: LedgerLimits = DEFAULT_LIMITS,
): LedgerErrorCode | null {
  const debitAsset = debit.asset ?? 'inr';
  if (amountPaise < (debitAsset === 'points' ? 1n : limits.minAmountPaise)) return 'amount_invalid';
  if (debit.id === credit.id) return 'same_account';
  if (debitAsset !== (credit.asset ?? 'inr')) return 'asset_mismatch';
  if (debit.kind !== 'system' && availableOf(debit) < amountPaise) return 'insufficient_funds';
  if (
    credit.kind !== 'system' &&
    (credit.asset ?? 'inr') === 'inr' &&
    balanceOf(credit) + credit.creditsPending + amountPaise > limits.maxBalancePaise
  ) {
    return 'balance_limit_exceeded';
  }
  return null;
}

/** The effect of a transfer on the two accounts' counters. */
export function applyTransfer(
  debit: AccountState,
  credit: AccountState,
  amountPaise: bigint,
  phase: 'single' | 'pending',
): void {
  if (phase === 'single') {
    debit.debitsPosted += amountPaise;
    credit.creditsPosted += amountPaise;
  } else {
    debit.debitsPending += amountPaise;
    credit.creditsPending += amountPaise;
  }
}

/** The effect of posting or voiding a pending transfer. */
export function resolvePending(
  debit: AccountState,
  credit: AccountState,
  amountPaise: bigint,
  action: 'post' | 'void',
): void {
  debit.debitsPending -= amountPaise;
  credit.creditsPending -= amountPaise;
  if (action === 'post') {
    debit.debitsPosted += amountPaise;
    credit.creditsPosted += amountPaise;
  }
}

/**
 * The canonical text of a request, compared when an id comes back: the same id with the same body is a
 * retry, with another body a mistake (409).
 */
export function requestFingerprint(
  fields: Record<string, string | bigint | number | null | undefined>,
): string {
  return Object.keys(fields)
    .sort()
    .map((key) => `${key}=${fields[key] === undefined || fields[key] === null ? '' : String(fields[key])}`)
    .join('&');
}
