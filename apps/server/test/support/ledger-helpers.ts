import { randomUUID } from 'node:crypto';
import { LedgerError } from '@hasta/ledger/rules';
import type { Kysely } from 'kysely';
import { afterEach, expect } from 'vitest';
import type { Schema } from '../../src/db/schema';
import { VerificationMissingError } from '../../src/wallet/send-money';
import { auditLedger, SYSTEM_ACCOUNT_ID, type Ledger } from '../../src/ledger/ledger';

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

/** `count` people, each with a wallet holding `grantPaise` issued from the system account. */
export async function openFundedAccounts(
  db: Kysely<Schema>,
  ledger: Ledger,
  count: number,
  grantPaise: bigint,
): Promise<string[]> {
  const tag = randomUUID().slice(0, 8);
  const users = await db
    .insertInto('users')
    .values(Array.from({ length: count }, (_, i) => ({ email: `w${i}-${tag}@load.test`, username: `W${i}` })))
    .returning('id')
    .execute();
  const accounts: string[] = [];
  for (const user of users) {
    const account = await ledger.ensureUserAccount(user.id);
    await issue(ledger, account, grantPaise);
    accounts.push(account);
  }
  return accounts;
}

export interface LoadTransfer {
  id: string;
  debitAccountId: string;
  creditAccountId: string;
  amountPaise: bigint;
  kind: 'transfer';
}

/**
 * The ledger's concurrency workload: `clients` concurrent clients each send `requestsPerClient` requests, random
 * transfers among `accounts`; 10 % retry an id already sent with the same body (its first use may still be in
 * flight), 5 % send an answered id with another body; the rest are new. Then it checks what the answers
 * promise: every request for one id with one body got the same answer (a refused id stays refused), every
 * other body was refused as a reused id, each acknowledged transfer is stored exactly once as sent and no
 * refused one is, and each wallet holds its grant plus exactly the acknowledged transfers.
 */
export async function checkConcurrentTransfers(options: {
  db: Kysely<Schema>;
  accounts: readonly string[];
  grantPaise: bigint;
  clients: number;
  requestsPerClient: number;
  maxAmountPaise: number;
  submit: (transfer: LoadTransfer, clientIndex: number) => Promise<unknown>;
}): Promise<{ acknowledged: number; refused: number; retries: number; otherBodies: number }> {
  const { accounts } = options;
  const random = (n: number) => Math.floor(Math.random() * n);
  const sent: LoadTransfer[] = [];
  const answered: LoadTransfer[] = [];
  const answers = new Map<string, string[]>();
  const otherBodyAnswers: string[] = [];
  const client = async (clientIndex: number) => {
    for (let i = 0; i < options.requestsPerClient; i += 1) {
      const roll = Math.random();
      if (roll < 0.1 && sent.length > 0) {
        const original = sent[random(sent.length)]!;
        answers.get(original.id)!.push(await outcomeOf(options.submit(original, clientIndex)));
      } else if (roll < 0.15 && answered.length > 0) {
        const original = answered[random(answered.length)]!;
        const otherBody = { ...original, amountPaise: original.amountPaise + 1n };
        otherBodyAnswers.push(await outcomeOf(options.submit(otherBody, clientIndex)));
      } else {
        const debitAccountId = accounts[random(accounts.length)]!;
        let creditAccountId = accounts[random(accounts.length)]!;
        if (creditAccountId === debitAccountId)
          creditAccountId = accounts[(accounts.indexOf(debitAccountId) + 1) % accounts.length]!;
        const transfer: LoadTransfer = {
          id: randomUUID(),
          debitAccountId,
          creditAccountId,
          amountPaise: BigInt(1 + random(options.maxAmountPaise)),
          kind: 'transfer',
        };
        sent.push(transfer);
        answers.set(transfer.id, []);
        const first = await outcomeOf(options.submit(transfer, clientIndex));
        answers.get(transfer.id)!.unshift(first);
        answered.push(transfer);
      }
    }
  };
  await Promise.all(Array.from({ length: options.clients }, (_, i) => client(i)));

  for (const transfer of sent) expect(new Set(answers.get(transfer.id)), transfer.id).toHaveLength(1);
  expect(new Set(otherBodyAnswers)).toEqual(new Set(otherBodyAnswers.length > 0 ? ['id_reused'] : []));

  const acknowledged = sent.filter((transfer) => answers.get(transfer.id)![0] === 'ok');
  const refused = sent.filter((transfer) => answers.get(transfer.id)![0] !== 'ok');
  const stored = await options.db
    .selectFrom('ledger_transfers')
    .select(['id', 'debit_account_id', 'credit_account_id', 'amount_paise', 'phase'])
    .where(
      'id',
      'in',
      sent.map((transfer) => transfer.id),
    )
    .execute();
  const storedById = new Map(stored.map((row) => [row.id, row]));
  expect(stored).toHaveLength(acknowledged.length);
  for (const transfer of acknowledged) {
    expect(storedById.get(transfer.id)).toEqual({
      id: transfer.id,
      debit_account_id: transfer.debitAccountId,
      credit_account_id: transfer.creditAccountId,
      amount_paise: transfer.amountPaise,
      phase: 'single',
    });
  }

  const expected = new Map(accounts.map((account) => [account, options.grantPaise]));
  for (const transfer of acknowledged) {
    expected.set(transfer.debitAccountId, expected.get(transfer.debitAccountId)! - transfer.amountPaise);
    expected.set(transfer.creditAccountId, expected.get(transfer.creditAccountId)! + transfer.amountPaise);
  }
  const rows = await options.db
    .selectFrom('ledger_accounts')
    .select(['id', 'credits_posted', 'debits_posted', 'debits_pending'])
    .where('id', 'in', [...accounts])
    .execute();
  expect(rows).toHaveLength(accounts.length);
  for (const row of rows) {
    expect([row.credits_posted - row.debits_posted, row.debits_pending], row.id).toEqual([
      expected.get(row.id),
      0n,
    ]);
  }
  const retries = [...answers.values()].reduce((sum, list) => sum + list.length - 1, 0);
  return {
    acknowledged: acknowledged.length,
    refused: refused.length,
    retries,
    otherBodies: otherBodyAnswers.length,
  };
}

/** After every test of the file that calls it: the ledger's auditor finds nothing (the books balance). */
export function auditAfterEachTest(db: () => Kysely<Schema>): void {
  afterEach(async () => {
    expect(await auditLedger(db())).toEqual([]);
  });
}
