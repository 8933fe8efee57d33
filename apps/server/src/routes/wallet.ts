import { normalizeEmail, normalizePhone } from '@hasta/contracts/identity';
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
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { listRecentTransfers } from '../admin/list-recent-transfers';
import { reverseTransfer } from '../admin/reverse-transfer';
import { TransferReversalRepository } from '../admin/transfer-reversal-repository';
import { listDashboardHistory } from '../history/list-dashboard-history';
import { listTransactionHistory } from '../history/list-transaction-history';
import { showDashboard } from '../history/show-dashboard';
import { AppError } from '../lib/app-error';
import { idempotencyKey } from './support/idempotency-key';
import { createBatchLoader } from '../lib/batch-loader';
import { TtlCache } from '../lib/ttl-cache';
import { ReceiverChangedError, VerificationMissingError } from '../ledger/batcher';
import { paiseOf, toAppError } from '../ledger/ledger-errors';
import { uuidFromText } from '../ledger/ledger';
import { toTransactionRecord } from '../ledger/queries';
import { actingFor, requireAdmin, requireUser, requireUserRecheckedInTransaction } from '../plugins/auth';
import { issueMoney } from '../wallet/issue-money';
import type { WalletDeps } from '../wallet/wallet-deps';

const TRANSFER_VERIFICATION_TTL_MS = 5 * 60_000;
/** Most receiver addresses read by one query. */
const RECEIVER_BATCH = 256;
/**
 * Receivers found recently, by address. A transfer credits a cached receiver only if the address still names
 * that account when the batch is written (the batch function checks it), so a stale entry costs a fresh
 * lookup, never a wrong payee.
 */
const RECEIVER_CACHE_TTL_MS = 60_000;
const RECEIVER_CACHE_SIZE = 100_000;
/** A cached receiver, then fresh lookups: an address that changes under every try gets a 409. */
const RECEIVER_ATTEMPTS = 3;

interface Receiver {
  id: string;
  email: string | null;
  phone: string | null;
  /** Their store, when they are a merchant. */
  store_id: string | null;
  store_contact_email: string | null;
}

/** A caller's key names a transfer only within that caller's own requests. */
function transferId(request: FastifyRequest, callerId: string): string {
  const key = idempotencyKey(request);
  return key ? uuidFromText(`transfer:${callerId}:${key}`) : crypto.randomUUID();
}

export const walletRoutes: FastifyPluginAsyncZod<{ deps: WalletDeps }> = async (app, options) => {
  const db = app.database.db;
  const ledger = app.ledger;
  const batcher = app.transferBatcher;
  const tags = ['wallet'];
  /** What the use cases below need (each takes its part). */
  const deps = { ...options.deps, transfers: new TransferReversalRepository(options.deps.db) };

  /**
   * The user an address names, with their store when they are a merchant. Addresses asked for together are
   * read with one query (never cached: each answer is as fresh as its batch's read).
   */
  const findReceiver = createBatchLoader(
    async (identifiers: string[]) => {
      const rows = await sql<Receiver>`
        SELECT u.id, u.email, u.phone, m.id AS store_id, m.contact_email AS store_contact_email
        FROM users u
        LEFT JOIN merchants m ON u.role = 'merchant' AND m.owner_user_id = u.id
        WHERE u.email = ANY(${identifiers}::text[]) OR u.phone = ANY(${identifiers}::text[])`.execute(db);
      const found = new Map<string, Receiver>();
      for (const row of rows.rows) {
        if (row.email !== null) found.set(row.email, row);
        if (row.phone !== null) found.set(row.phone, row);
      }
      return found;
    },
    { maxBatch: RECEIVER_BATCH },
  );

  /** Where money sent to an address goes: the receiver, with their store's account or their own. */
  const receiverCache = new TtlCache<{ receiver: Receiver; accountId: string }>(
    RECEIVER_CACHE_TTL_MS,
    RECEIVER_CACHE_SIZE,
  );
  async function receiverOf(address: string, cached: boolean) {
    const hit = cached ? receiverCache.get(address) : undefined;
    if (hit) return hit;
    const receiver = await findReceiver(address);
    if (!receiver) throw AppError.of('NOT_FOUND', 'receiverNotFound');
    // Money sent to a merchant's address goes to their store: its sales, its withdrawals.
    const accountId =
      receiver.store_id === null
        ? await ledger.ensureUserAccount(receiver.id)
        : await ledger.ensureMerchantAccount(receiver.store_id);
    const found = { receiver, accountId };
    receiverCache.set(address, found);
    return found;
  }

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
    async (request) => ({
      user: await showDashboard(deps, actingFor(await requireUser(request), request.query.userId)),
    }),
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
      const page = await listDashboardHistory(deps, {
        userId: actingFor(await requireUser(request), request.query.userId),
        before: request.query.before,
        limit: request.query.limit,
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
    async (request) =>
      listTransactionHistory(deps, {
        userId: actingFor(await requireUser(request), request.query.userId),
        before: request.query.before,
        limit: request.query.limit,
      }),
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
      const { receiverEmail, receiverPhone } = request.body;
      const email = receiverEmail === undefined ? undefined : normalizeEmail(receiverEmail);
      if (email === null) throw AppError.of('BAD_REQUEST', 'invalidEmail');
      const phone = receiverPhone === undefined ? undefined : normalizePhone(receiverPhone);
      if (phone === null) throw AppError.of('BAD_REQUEST', 'invalidPhone');
      if (email !== undefined && email === auth.user.email) throw AppError.of('BAD_REQUEST', 'selfSendEmail');
      if (phone !== undefined && phone === auth.user.phone) throw AppError.of('BAD_REQUEST', 'selfSendPhone');
      const amountPaise = paiseOf(request.body.amount, ledger.limits);

      const address = (email ?? phone)!;
      const from = await ledger.ensureUserAccount(auth.user.id);
      const transferIdOfRequest = transferId(request, auth.user.id);

      for (let attempt = 1; ; attempt += 1) {
        const { receiver, accountId: to } = await receiverOf(address, attempt === 1);
        if (receiver.id === auth.user.id)
          throw AppError.of('BAD_REQUEST', email ? 'selfSendEmail' : 'selfSendPhone');
        const store =
          receiver.store_id === null
            ? undefined
            : { id: receiver.store_id, contact_email: receiver.store_contact_email };
        try {
          // One verified OTP of this session, at most 5 minutes old, pays for exactly one transfer.
          const transfer = await batcher.submit({
            id: transferIdOfRequest,
            debitAccountId: from,
            creditAccountId: to,
            amountPaise,
            kind: 'transfer',
            initiatedBy: auth.user.id,
            verification: {
              sessionId: auth.sessionId,
              purpose: 'transfer',
              createdAfter: new Date(Date.now() - TRANSFER_VERIFICATION_TTL_MS),
            },
            receiverAddress: address,
          });
          return {
            success: true as const,
            message: messages.moneySent,
            transaction: toTransactionRecord(
              {
                ...transfer,
                phase: 'single',
                from_user_id: auth.user.id,
                from_email: auth.user.email ?? auth.user.phone,
                to_user_id: store ? null : receiver.id,
                to_merchant_id: store?.id ?? null,
                to_email: store ? store.contact_email : (receiver.email ?? receiver.phone),
                resolution: null,
                reversed: false,
              },
              from,
            ),
          };
        } catch (error) {
          if (error instanceof ReceiverChangedError) {
            // The address names another account now: nothing was written or spent; look it up again.
            receiverCache.delete(address);
            if (attempt < RECEIVER_ATTEMPTS) continue;
            throw AppError.of('CONFLICT', 'receiverChanged');
          }
          if (error instanceof VerificationMissingError) {
            // The session came from the cache: say what the database says about it now.
            if (cached) {
              request.auth = null;
              await requireUser(request);
            }
            throw AppError.of('FORBIDDEN', 'transferVerificationRequired');
          }
          throw toAppError(error, ledger.limits);
        }
      }
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
      const admin = await requireAdmin(request);
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
      const admin = await requireAdmin(request);
      const { reversalId } = await reverseTransfer(deps, {
        adminId: admin.user.id,
        transferId: request.params.txid,
      });
      return { success: true as const, message: messages.transactionDeleted, reversal_txid: reversalId };
    },
  );
};
