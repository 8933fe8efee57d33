import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { SYSTEM_ACCOUNT_ID, uuidFromText, type Ledger } from '../ledger/ledger';
import { paiseOf, toAppError } from '../ledger/ledger-errors';
import { findWallet } from './find-wallet';

export interface IssueMoneyInput {
  /** The admin who issues it. */
  adminId: string;
  userId: string;
  /** Rupees as the admin typed them (a JSON number): at most 2 decimals, above zero. */
  amount: number;
  /** The request's Idempotency-Key: the same key from the same admin issues once. */
  idempotencyKey: string | undefined;
}

/**
 * Money an admin adds to a user's wallet, issued from the system account (spec: Send Value). Answers the
 * wallet's balance after it. 404 for an unknown user; the ledger's refusals in the limits' words.
 */
export async function issueMoney(
  deps: {
    db: Kysely<Schema>;
    ledger: Pick<Ledger, 'ensureUserAccount' | 'transfer' | 'account' | 'limits'>;
  },
  input: IssueMoneyInput,
): Promise<{ balancePaise: bigint }> {
  const { ledger } = deps;
  const { accountId } = await findWallet(deps, input.userId);
  // The same id space as the admin's own transfers: a key names one transfer of that caller.
  const id = input.idempotencyKey
    ? uuidFromText(`transfer:${input.adminId}:${input.idempotencyKey}`)
    : crypto.randomUUID();
  try {
    await ledger.transfer({
      id,
      debitAccountId: SYSTEM_ACCOUNT_ID,
      creditAccountId: accountId,
      amountPaise: paiseOf(input.amount, ledger.limits),
      kind: 'issuance',
      initiatedBy: input.adminId,
    });
  } catch (error) {
    throw toAppError(error, ledger.limits);
  }
  const account = await ledger.account(accountId);
  if (!account) throw new Error(`ledger account ${accountId} is missing after money was issued to it`);
  return { balancePaise: account.creditsPosted - account.debitsPosted };
}
