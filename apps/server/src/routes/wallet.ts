import { messages } from '@hasta/contracts/messages';
import {
  adminTransactionsResponseSchema,
  assignBalanceRequestSchema,
  assignBalanceResponseSchema,
  dashboardHistoryResponseSchema,
  dashboardResponseSchema,
  historyPageQuerySchema,
  idempotencyHeaderSchema,
  deleteTransactionResponseSchema,
  transactionHistoryResponseSchema,
  transferRequestSchema,
  transferResponseSchema,
} from '@hasta/contracts/wallet';
import { paiseToRupeesText } from '@hasta/ledger/money';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listRecentTransfers } from '../admin/list-recent-transfers';
import { reverseTransfer } from '../admin/reverse-transfer';
import { TransferReversalRepository } from '../admin/transfer-reversal-repository';
import { listDashboardHistory } from '../history/list-dashboard-history';
import { listTransactionHistory } from '../history/list-transaction-history';
import { showDashboard } from '../history/show-dashboard';
import { AppError } from '../lib/app-error';
import { idempotencyKey } from './support/idempotency-key';
import {
  actingFor,
  requireAdmin,
  requireAdminWithRecentPasskey,
  requireUser,
  requireUserRecheckedInTransaction,
} from '../plugins/auth';
import { issueMoney } from '../wallet/issue-money';
import { sendMoney, sendMoneyDeps } from '../wallet/send-money';
import type { WalletDeps } from '../wallet/wallet-deps';

export const walletRoutes: FastifyPluginAsyncZod<{ deps: WalletDeps }> = async (app, options) => {
  const tags = ['wallet'];
  /** What the use cases below need (each takes its part). */
  const deps = {
    ...options.deps,
    transfers: new TransferReversalRepository(options.deps.db),
    rewards: app.rewards,
  };

  const sendMoneyWith = sendMoneyDeps({
    ...options.deps,
    batcher: app.transferBatcher,
    rewards: app.rewards,
  });

  app.get(
    '/dashboard',
    {
      schema: {
        tags,
        summary: 'The wallet overview of a user (their own; an admin may name anyone)',
        querystring: z.object({ userId: z.uuid(messages.userNotFound).optional() }),
        response: { 200: dashboardResponseSchema },
      },
    },
    async (request) => {
      const auth = await requireUser(request);
      return {
        user: await showDashboard(deps, actingFor(auth, request.query.userId), {
          revealPayers: auth.user.role === 'admin',
        }),
      };
    },
  );

  app.get(
    '/dashboard/history',
    {
      schema: {
        tags,
        summary: 'Older pages of the dashboard history (their own; an admin may name anyone)',
        querystring: historyPageQuerySchema.extend({ userId: z.uuid(messages.userNotFound).optional() }),
        response: { 200: dashboardHistoryResponseSchema },
      },
    },
    async (request) => {
      const auth = await requireUser(request);
      const page = await listDashboardHistory(deps, {
        userId: actingFor(auth, request.query.userId),
        before: request.query.before,
        limit: request.query.limit,
        revealPayers: auth.user.role === 'admin',
      });
      return { user_history: page.entries, next: page.next };
    },
  );

  app.get(
    '/transaction/history',
    {
      schema: {
        tags,
        summary: 'Transfers a user sent or received, newest first, a page at a time',
        querystring: historyPageQuerySchema.extend({
          userId: z.uuid(messages.userNotAuthenticated).optional(),
        }),
        response: { 200: transactionHistoryResponseSchema },
      },
    },
    async (request) => {
      const auth = await requireUser(request);
      return listTransactionHistory(deps, {
        userId: actingFor(auth, request.query.userId),
        before: request.query.before,
        limit: request.query.limit,
        revealPayers: auth.user.role === 'admin',
      });
    },
  );

  app.post(
    '/transfer',
    {
      schema: {
        tags,
        summary: 'Send money to another user, after verifying an OTP sent to your own phone or email',
        headers: idempotencyHeaderSchema,
        body: transferRequestSchema,
        response: { 200: transferResponseSchema },
      },
    },
    async (request) => {
      const { auth, cached } = await requireUserRecheckedInTransaction(request);
      if (request.body.userId !== undefined && request.body.userId !== auth.user.id)
        throw AppError.of('FORBIDDEN', 'forbidden');
      const { transaction } = await sendMoney(sendMoneyWith, {
        sender: auth.user,
        sessionId: auth.sessionId,
        idempotencyKey: idempotencyKey(request),
        receiverEmail: request.body.receiverEmail,
        receiverPhone: request.body.receiverPhone,
        amount: request.body.amount,
        // The session came from the cache: say what the database says about it now.
        recheckSession: async () => {
          if (!cached) return;
          request.auth = null;
          await requireUser(request);
        },
      });
      return { success: true as const, message: messages.moneySent, transaction };
    },
  );

  app.post(
    '/assignBalance',
    {
      schema: {
        tags: ['admin'],
        summary: 'Admin: add money to a user’s wallet (issued from the system account)',
        headers: idempotencyHeaderSchema,
        body: assignBalanceRequestSchema,
        response: { 200: assignBalanceResponseSchema },
      },
    },
    async (request) => {
      const admin = await requireAdminWithRecentPasskey(request);
      const { balancePaise } = await issueMoney(deps, {
        adminId: admin.user.id,
        userId: request.body.userId,
        amount: request.body.amount,
        idempotencyKey: idempotencyKey(request),
      });
      return {
        success: true as const,
        message: messages.valueSent,
        balance: paiseToRupeesText(balancePaise),
      };
    },
  );

  app.get(
    '/transaction',
    {
      schema: {
        tags: ['admin'],
        summary: 'Admin: recent transfers (deleted ones hidden unless asked for)',
        querystring: z.object({ include_deleted: z.enum(['true', 'false']).optional() }),
        response: { 200: adminTransactionsResponseSchema },
      },
    },
    async (request) => {
      await requireAdmin(request);
      return {
        transactions: await listRecentTransfers(deps, {
          includeReversed: request.query.include_deleted === 'true',
        }),
      };
    },
  );

  app.delete(
    '/transaction/:txid',
    {
      schema: {
        tags: ['admin'],
        summary: 'Admin: delete a transfer by reversing it with a new transfer (the trail is kept)',
        params: z.object({ txid: z.uuid(messages.transactionNotFound) }),
        response: { 200: deleteTransactionResponseSchema },
      },
    },
    async (request) => {
      const admin = await requireAdminWithRecentPasskey(request);
      const { reversalId } = await reverseTransfer(deps, {
        adminId: admin.user.id,
        transferId: request.params.txid,
      });
      return { success: true as const, message: messages.transactionDeleted, reversal_txid: reversalId };
    },
  );
};
