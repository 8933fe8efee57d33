import { randomUUID } from 'node:crypto';
import { LedgerError } from '@hasta/ledger/rules';
import { VerificationMissingError } from '../../src/ledger/batcher';
import { SYSTEM_ACCOUNT_ID, type Ledger } from '../../src/ledger/ledger';

/** Money issued into an account from the system account, as the admin's Send Value does. */
export function issue(ledger: Ledger, to: string, amountPaise: bigint) {
  return ledger.transfer({
    id: randomUUID(),
    debitAccountId: SYSTEM_ACCOUNT_ID,
    creditAccountId: to,
    amountPaise,
    kind: 'issuance',
  });
}

/** 'ok', the ledger's refusal code, or 'verification_missing'; anything else is thrown again. */
export async function outcomeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    if (error instanceof LedgerError) return error.code;
    if (error instanceof VerificationMissingError) return 'verification_missing';
    throw error;
  }
}
