import {
  applyTransfer,
  checkTransfer,
  DEFAULT_LIMITS,
  requestFingerprint,
  resolvePending,
  type AccountKind,
  type AccountState,
  type Asset,
  type LedgerErrorCode,
  type LedgerLimits,
} from './rules';

export interface ModelTransfer {
  id: string;
  debitAccountId: string;
  creditAccountId: string;
  amountPaise: bigint;
  phase: 'single' | 'pending';
}

export type ModelOutcome = { ok: true } | { ok: false; code: LedgerErrorCode };

/**
 * An in-memory ledger with the same rules and idempotency as the database one. Property tests drive both
 * with the same random operations and compare every outcome and balance.
 */
export class ReferenceLedger {
  readonly accounts = new Map<string, AccountState>();
  readonly #outcomes = new Map<string, { fingerprint: string; outcome: ModelOutcome }>();
  readonly #pending = new Map<string, { transfer: ModelTransfer; resolved: boolean }>();

  constructor(private readonly limits: LedgerLimits = DEFAULT_LIMITS) {}

  open(id: string, kind: AccountKind, asset: Asset = 'inr'): void {
    this.accounts.set(id, {
      id,
      kind,
      asset,
      debitsPosted: 0n,
      creditsPosted: 0n,
      debitsPending: 0n,
      creditsPending: 0n,
    });
  }

  transfer(request: ModelTransfer): ModelOutcome {
    const fingerprint = requestFingerprint({
      kind: 'transfer',
      debit: request.debitAccountId,
      credit: request.creditAccountId,
      amount: request.amountPaise,
      phase: request.phase,
    });
    return this.#idempotent(request.id, fingerprint, () => {
      const debit = this.accounts.get(request.debitAccountId);
      const credit = this.accounts.get(request.creditAccountId);
      if (!debit || !credit) return { ok: false, code: 'account_not_found' };
      const refused = checkTransfer(debit, credit, request.amountPaise, this.limits);
      if (refused) return { ok: false, code: refused };
      applyTransfer(debit, credit, request.amountPaise, request.phase);
      if (request.phase === 'pending') this.#pending.set(request.id, { transfer: request, resolved: false });
      return { ok: true };
    });
  }

  resolve(id: string, pendingId: string, action: 'post' | 'void'): ModelOutcome {
    const fingerprint = requestFingerprint({ kind: action, pending: pendingId });
    return this.#idempotent(id, fingerprint, () => {
      const pending = this.#pending.get(pendingId);
      if (!pending) return { ok: false, code: 'pending_not_found' };
      if (pending.resolved) return { ok: false, code: 'pending_resolved' };
      const { transfer } = pending;
      resolvePending(
        this.accounts.get(transfer.debitAccountId)!,
        this.accounts.get(transfer.creditAccountId)!,
        transfer.amountPaise,
        action,
      );
      pending.resolved = true;
      return { ok: true };
    });
  }

  #idempotent(id: string, fingerprint: string, run: () => ModelOutcome): ModelOutcome {
    const previous = this.#outcomes.get(id);
    if (previous)
      return previous.fingerprint === fingerprint ? previous.outcome : { ok: false, code: 'id_reused' };
    const outcome = run();
    this.#outcomes.set(id, { fingerprint, outcome });
    return outcome;
  }
}
