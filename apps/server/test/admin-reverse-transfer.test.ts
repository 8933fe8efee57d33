import { randomUUID } from 'node:crypto';
import { messages } from '@hasta/contracts/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reverseTransfer } from '../src/admin/reverse-transfer';
import { TransferReversalRepository } from '../src/admin/transfer-reversal-repository';
import { migrate } from '../src/db/migrate';
import { parseEnv, rewardsConfig } from '../src/env';
import { Ledger } from '../src/ledger/ledger';
import { RewardsBook } from '../src/rewards/rewards-book';
import { auditAfterEachTest, openFundedAccounts } from './support/ledger-helpers';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from './support/test-app';

describe(`an admin's reversal of a transfer on ${testDatabaseKind}`, () => {
  let test: TestDatabase;
  let ledger: Ledger;
  let transfers: TransferReversalRepository;
  let rewards: RewardsBook;
  let adminId: string;
  beforeAll(async () => {
    test = await createTestDatabase();
    await migrate(test.database);
    ledger = new Ledger(test.database.db);
    transfers = new TransferReversalRepository(test.database.db);
    rewards = new RewardsBook(ledger, rewardsConfig(parseEnv({})));
    adminId = (
      await test.database.db
        .insertInto('users')
        .values({
          email: `admin-${randomUUID().slice(0, 8)}@reversal.test`,
          username: 'Admin',
          role: 'admin',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  });
  auditAfterEachTest(() => test.database.db);
  afterAll(async () => {
    await test.drop();
  });

  const balance = async (id: string) => {
    const account = (await ledger.account(id))!;
    return account.creditsPosted - account.debitsPosted;
  };

  it('lets one of two admins deleting at once through, and answers the other as already reversed', async () => {
    const [payer, payee] = await openFundedAccounts(test.database.db, ledger, 2, 10_000n);
    const paid = await ledger.transfer({
      id: randomUUID(),
      debitAccountId: payer!,
      creditAccountId: payee!,
      amountPaise: 3_000n,
      kind: 'transfer',
    });
    // The second admin read "not reversed yet" before the first one's reversal was written.
    const readBeforeTheFirstReversal = {
      findReversible: (id: string) => transfers.findReversible(id),
      isReversed: async () => false,
    };

    const first = await reverseTransfer({ ledger, transfers, rewards }, { adminId, transferId: paid.id });
    const second = reverseTransfer(
      { ledger, transfers: readBeforeTheFirstReversal, rewards },
      { adminId, transferId: paid.id },
    );

    await expect(second).rejects.toMatchObject({
      code: 'CONFLICT',
      message: messages.transactionAlreadyReversed,
    });
    expect(await transfers.isReversed(paid.id)).toBe(true);
    expect(first.reversalId).not.toBe(paid.id);
    expect(await balance(payer!)).toBe(10_000n);
    expect(await balance(payee!)).toBe(10_000n);
  });

  it('refuses a transfer that is unknown or itself a reversal', async () => {
    const [payer, payee] = await openFundedAccounts(test.database.db, ledger, 2, 10_000n);
    const paid = await ledger.transfer({
      id: randomUUID(),
      debitAccountId: payer!,
      creditAccountId: payee!,
      amountPaise: 500n,
      kind: 'transfer',
    });
    const { reversalId } = await reverseTransfer(
      { ledger, transfers, rewards },
      { adminId, transferId: paid.id },
    );
    for (const transferId of [randomUUID(), reversalId]) {
      await expect(
        reverseTransfer({ ledger, transfers, rewards }, { adminId, transferId }),
      ).rejects.toMatchObject({
        code: 'NOT_FOUND',
        message: messages.transactionNotFound,
      });
    }
  });
});
