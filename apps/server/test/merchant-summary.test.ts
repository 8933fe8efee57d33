import { randomUUID } from 'node:crypto';
import { paiseToRupeesText } from '@hasta/ledger/money';
import type { TransferKind } from '@hasta/ledger/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTransfers, statusOf, type TransferStatus } from '../src/ledger/queries';
import { bearer, signInAsAdmin } from './support/auth-helpers';
import { auditAfterEachTest, openFundedAccounts } from './support/ledger-helpers';
import { approvedMerchant } from './support/merchant-helpers';
import { buildTestApp, testDatabaseKind, type TestApp } from './support/test-app';

/** More single payments than the summary used to read (its 10,000 newest transfers). */
const SINGLE_PAYMENTS = 10_050;
const CUSTOMERS = 37;
const GRANT_PAISE = 400_000n;
const PENDING_TIMEOUT_MS = 60 * 60_000;

/** A transfer into the store as the test wrote it, and the status it must have. */
interface Written {
  id: string;
  from: string;
  amountPaise: bigint;
  kind: TransferKind;
  status: TransferStatus;
}

describe(`a busy store's summary on ${testDatabaseKind}`, () => {
  let test: TestApp;
  let adminToken: string;
  beforeAll(async () => {
    test = await buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '30000' } });
    adminToken = await signInAsAdmin(test.app, test.database);
  });
  auditAfterEachTest(() => test.database.db);
  afterAll(async () => {
    await test.close();
  });

  it(
    'sums every transfer into the store, beyond 10,000, with their statuses',
    { timeout: 600_000 },
    async () => {
      const { app, database } = test;
      const { ledger } = app;
      const shop = await approvedMerchant(app, database, adminToken);
      const store = await ledger.ensureMerchantAccount(shop.merchantId);
      const customers = await openFundedAccounts(database.db, ledger, CUSTOMERS, GRANT_PAISE);
      // Pays only in ways that do not complete: never one of the store's customers.
      const [ghost] = await openFundedAccounts(database.db, ledger, 1, GRANT_PAISE);
      const written: Written[] = [];

      // Two-phase palm payments (above the palm limit): posted, voided, and left pending.
      const pendingPayment = async (from: string, amountPaise: bigint) => {
        const id = randomUUID();
        await ledger.transfer({
          id,
          debitAccountId: from,
          creditAccountId: store,
          amountPaise,
          kind: 'payment',
          pending: { timeoutMs: PENDING_TIMEOUT_MS },
        });
        return id;
      };
      for (const [from, amountPaise, action] of [
        [customers[0]!, 150_001n, 'post'],
        [customers[1]!, 120_003n, 'post'],
        [ghost!, 90_000n, 'void'],
        [customers[2]!, 70_000n, 'void'],
        [ghost!, 80_000n, 'open'],
        [customers[3]!, 60_000n, 'open'],
      ] as const) {
        const id = await pendingPayment(from, amountPaise);
        if (action !== 'open')
          await ledger.resolve({
            id: randomUUID(),
            pendingId: id,
            action: action === 'post' ? 'post' : 'void',
          });
        const status = action === 'post' ? 'completed' : action === 'void' ? 'voided' : 'pending';
        written.push({ id, from, amountPaise, kind: 'payment', status });
      }

      // The single payments, written through the group-commit path all at once; every tenth is a plain
      // transfer (not a palm scan). Amounts vary so the average has a remainder.
      const singles = Array.from({ length: SINGLE_PAYMENTS }, (_, i) => ({
        id: randomUUID(),
        from: customers[i % CUSTOMERS]!,
        amountPaise: BigInt(100 + ((i * 37) % 900)),
        kind: (i % 10 === 9 ? 'transfer' : 'payment') as TransferKind,
        status: 'completed' as TransferStatus,
      }));
      const ghostPaid = { id: randomUUID(), from: ghost!, amountPaise: 777n, kind: 'payment' as const };
      await Promise.all(
        [...singles, ghostPaid].map((payment) =>
          app.transferBatcher.submit({
            id: payment.id,
            debitAccountId: payment.from,
            creditAccountId: store,
            amountPaise: payment.amountPaise,
            kind: payment.kind,
          }),
        ),
      );
      written.push(...singles, { ...ghostPaid, status: 'completed' });

      // An admin deletes (reverses) four of them, the ghost's only completed payment among them.
      for (const reversed of [singles[0]!, singles[4_321]!, singles[SINGLE_PAYMENTS - 1]!, ghostPaid]) {
        const response = await app.inject({
          method: 'DELETE',
          url: `/api/transaction/${reversed.id}`,
          headers: bearer(adminToken),
        });
        expect(response.statusCode, response.body).toBe(200);
        written.find((transfer) => transfer.id === reversed.id)!.status = 'reversed';
      }

      const completed = written.filter((transfer) => transfer.status === 'completed');
      const attempts = written.filter((transfer) => transfer.status !== 'pending');
      const salesPaise = completed.reduce((sum, transfer) => sum + transfer.amountPaise, 0n);
      expect(completed.length).toBeGreaterThan(10_000);
      expect(new Set(completed.map((transfer) => transfer.from)).size).toBe(CUSTOMERS);
      expect(new Set(written.map((transfer) => transfer.status))).toEqual(
        new Set(['completed', 'reversed', 'voided', 'pending']),
      );

      // The statuses written are the ledger's own (statusOf over every transfer of the store, unpaged).
      const views = await listTransfers(database.db, {
        accountId: store,
        limit: 1_000_000,
        includeReversed: true,
      });
      const statuses = new Map(
        views.filter((view) => view.credit_account_id === store).map((view) => [view.id, statusOf(view)]),
      );
      expect(statuses.size).toBe(written.length);
      for (const transfer of written) expect(statuses.get(transfer.id), transfer.id).toBe(transfer.status);

      const summary = await app.inject({
        method: 'GET',
        url: '/api/merchant/summary',
        headers: bearer(shop.token),
      });
      expect(summary.statusCode, summary.body).toBe(200);
      expect(summary.json()).toEqual({
        store_name: 'Chai Point',
        balance: paiseToRupeesText(salesPaise),
        available_balance: paiseToRupeesText(salesPaise),
        total_sales: paiseToRupeesText(salesPaise),
        total_transactions: completed.length,
        average_transaction: paiseToRupeesText(salesPaise / BigInt(completed.length)),
        success_rate: Math.round((completed.length / attempts.length) * 1000) / 10,
        total_withdrawals: '0.00',
        pending_withdrawal_count: 0,
        pending_withdrawals: '0.00',
        total_customers: new Set(completed.map((transfer) => transfer.from)).size,
        total_qr_codes_generated: 0,
        total_qr_scans: 0,
        total_palm_scans: written.filter((transfer) => transfer.kind === 'payment').length,
      });
    },
  );
});
