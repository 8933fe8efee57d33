import { messages } from '@hasta/contracts/messages';
import {
  adminTransactionsResponseSchema,
  assignBalanceRequestSchema,
  assignBalanceResponseSchema,
  dashboardHistoryResponseSchema,
  dashboardResponseSchema,
  historyPageQuerySchema,
  HISTORY_PAGE_MAX,
  HISTORY_PAGE_SIZE,
  type HistoryEntry,
  idempotencyHeaderSchema,
  deleteTransactionResponseSchema,
  transactionHistoryResponseSchema,
  transferRequestSchema,
  transferResponseSchema,
} from '@hasta/contracts/wallet';
import { paiseToRupeesText } from '@hasta/ledger/money';
import { LedgerError } from '@hasta/ledger/rules';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { AppError } from '../lib/app-error';
import { idempotencyKey } from './support/idempotency-key';
import { paiseOf, toAppError } from '../ledger/ledger-errors';
import { SYSTEM_ACCOUNT_ID, uuidFromText } from '../ledger/ledger';
import { listTransfers, statusOf, toTransactionRecord } from '../ledger/queries';
import { actingFor, requireAdmin, requireUser, requireUserRecheckedInTransaction } from '../plugins/auth';
import { sendMoney, sendMoneyDeps } from '../wallet/send-money';

const ADMIN_LIST_LIMIT = 500;

/** A caller's key names a transfer only within that caller's own requests. */
function transferId(request: FastifyRequest, callerId: string): string {
  const key = idempotencyKey(request);
  return key ? uuidFromText(`transfer:${callerId}:${key}`) : crypto.randomUUID();
}

export const walletRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.database.db;
  const ledger = app.ledger;
  const tags = ['wallet'];

  const sendMoneyWith = sendMoneyDeps({ db, ledger, batcher: app.transferBatcher });

  async function userOrNotFound(userId: string) {
    const user = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
    if (!user) throw AppError.of('NOT_FOUND', 'userNotFound');
    return user;
  }

  /**
   * One page of a person's dashboard history, newest first: their transfers and their palm events, merged by
   * time. Each source is read in its own order of writing from where the previous page left it, so a page
   * never repeats or skips an entry; `next` holds both places ("transfer seq.palm event seq"), null at the end.
   */
  async function historyPage(
    userId: string,
    accountId: string,
    before: string | undefined,
    size: number,
  ): Promise<{ entries: HistoryEntry[]; next: string | null }> {
    const [transfersBefore, palmBefore] =
      before === undefined ? [undefined, undefined] : before.split('.').map((part) => BigInt(part));
    if (before !== undefined && palmBefore === undefined) throw AppError.of('BAD_REQUEST', 'invalidRequest');
    // One more than a page from each source: whatever is left over says there is an older page.
    const [transfers, palmEvents] = await Promise.all([
      listTransfers(db, { accountId, beforeSeq: transfersBefore, limit: size + 1, includeReversed: true }),
      db
        .selectFrom('palm_events')
        .select(['seq', 'type', 'status', 'similarity', 'created_at'])
        .where('user_id', '=', userId)
        .where('type', 'in', ['palm.enrolled', 'palm.scan'])
        .$if(palmBefore !== undefined, (query) => query.where('seq', '<', String(palmBefore)))
        .orderBy('seq', 'desc')
        .limit(size + 1)
        .execute(),
    ]);
    const fromTransfers = transfers.map((view) => {
      const record = toTransactionRecord(view, accountId);
      const entry: HistoryEntry = {
        type: 'transaction',
        created_at: record.created_at,
        sender: record.from_user_email,
        receiver: record.to_user_email,
        amount: record.amount,
        status: record.status,
        similarity: null,
        txid: record.id,
        // The payment's entry in the verifiable log, as on its receipt (null until it is sequenced).
        tx: record.blockchain_tx,
      };
      return { seq: view.seq, entry };
    });
    const fromPalm = palmEvents.map((event) => {
      const entry: HistoryEntry = {
        type: event.type === 'palm.enrolled' ? 'palm_registration' : 'palm_manual_scan',
        created_at: new Date(event.created_at).toISOString(),
        sender: null,
        receiver: null,
        amount: null,
        status: event.type === 'palm.enrolled' ? 'Completed' : (event.status ?? 'Success'),
        similarity: event.similarity,
        txid: null,
        tx: null,
      };
      return { seq: BigInt(event.seq), entry };
    });
    // Merge the two, each taken in its own order, the later first (a transfer first at the same time).
    const entries: HistoryEntry[] = [];
    let t = 0;
    let p = 0;
    while (entries.length < size && (t < fromTransfers.length || p < fromPalm.length)) {
      const transferNext =
        p >= fromPalm.length ||
        (t < fromTransfers.length && fromTransfers[t]!.entry.created_at >= fromPalm[p]!.entry.created_at);
      entries.push(transferNext ? fromTransfers[t++]!.entry : fromPalm[p++]!.entry);
    }
    if (t === fromTransfers.length && p === fromPalm.length) return { entries, next: null };
    /** Where a source goes on: below the last entry taken from it, else where it was. */
    const resume = (taken: number, fetched: readonly { seq: bigint }[], was: bigint | undefined) =>
      taken > 0 ? fetched[taken - 1]!.seq : (was ?? (fetched.length > 0 ? fetched[0]!.seq + 1n : 0n));
    return {
      entries,
      next: `${resume(t, fromTransfers, transfersBefore)}.${resume(p, fromPalm, palmBefore)}`,
    };
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
    async (request) => {
      const user = await userOrNotFound(actingFor(await requireUser(request), request.query.userId));
      const accountId = await ledger.ensureUserAccount(user.id);
      const account = (await ledger.account(accountId))!;
      const balance = account.creditsPosted - account.debitsPosted;
      const [templates, history] = await Promise.all([
        db
          .selectFrom('palm_templates')
          .select(['hand', 'palm_hash'])
          .where('user_id', '=', user.id)
          .orderBy('created_at')
          .execute(),
        historyPage(user.id, accountId, undefined, HISTORY_PAGE_SIZE),
      ]);
      return {
        user: {
          id: user.id,
          email: user.email,
          phone: user.phone,
          username: user.username,
          balance: paiseToRupeesText(balance),
          balance_paise: balance.toString(),
          palm_hash: templates[0]?.palm_hash ?? null,
          handinfo: {
            left: templates.some((row) => row.hand === 'left'),
            right: templates.some((row) => row.hand === 'right'),
          },
          user_history: history.entries,
          user_history_next: history.next,
        },
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
      const user = await userOrNotFound(actingFor(await requireUser(request), request.query.userId));
      const accountId = await ledger.ensureUserAccount(user.id);
      const page = await historyPage(
        user.id,
        accountId,
        request.query.before,
        request.query.limit ?? HISTORY_PAGE_SIZE,
      );
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
      const userId = actingFor(await requireUser(request), request.query.userId);
      const accountId = await ledger.ensureUserAccount((await userOrNotFound(userId)).id);
      if (request.query.before?.includes('.')) throw AppError.of('BAD_REQUEST', 'invalidRequest');
      const size = request.query.limit ?? HISTORY_PAGE_MAX;
      const transfers = await listTransfers(db, {
        accountId,
        beforeSeq: request.query.before === undefined ? undefined : BigInt(request.query.before),
        limit: size + 1,
        includeReversed: true,
      });
      const page = transfers.slice(0, size);
      return {
        transactions: page.map((view) => toTransactionRecord(view, accountId)),
        next: transfers.length > size ? page[page.length - 1]!.seq.toString() : null,
      };
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
      const admin = await requireAdmin(request);
      const user = await userOrNotFound(request.body.userId);
      const accountId = await ledger.ensureUserAccount(user.id);
      try {
        await ledger.transfer({
          id: transferId(request, admin.user.id),
          debitAccountId: SYSTEM_ACCOUNT_ID,
          creditAccountId: accountId,
          amountPaise: paiseOf(request.body.amount, ledger.limits),
          kind: 'issuance',
          initiatedBy: admin.user.id,
        });
      } catch (error) {
        throw toAppError(error, ledger.limits);
      }
      const account = (await ledger.account(accountId))!;
      return {
        success: true as const,
        message: messages.valueSent,
        balance: paiseToRupeesText(account.creditsPosted - account.debitsPosted),
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
      const transfers = await listTransfers(db, {
        limit: ADMIN_LIST_LIMIT,
        includeReversed: request.query.include_deleted === 'true',
      });
      return {
        transactions: transfers.map((view) => ({
          txid: view.id,
          kind: view.kind,
          from_user_id: view.from_user_id,
          to_user_id: view.to_user_id,
          to_merchant_id: view.to_merchant_id,
          amount: paiseToRupeesText(view.amount_paise),
          status: statusOf(view),
          created_at: view.created_at.toISOString(),
        })),
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
      const original = await db
        .selectFrom('ledger_transfers')
        .selectAll()
        .where('id', '=', request.params.txid)
        .where('phase', '=', 'single')
        .where('kind', '<>', 'reversal')
        .executeTakeFirst();
      if (!original) throw AppError.of('NOT_FOUND', 'transactionNotFound');
      const reversed = await sql<{
        id: string;
      }>`SELECT id FROM ledger_transfers WHERE reverses_id = ${original.id}`.execute(db);
      if (reversed.rows.length > 0) throw AppError.of('CONFLICT', 'transactionAlreadyReversed');
      try {
        const reversal = await ledger.transfer({
          id: crypto.randomUUID(),
          debitAccountId: original.credit_account_id,
          creditAccountId: original.debit_account_id,
          amountPaise: original.amount_paise,
          kind: 'reversal',
          reversesId: original.id,
          initiatedBy: admin.user.id,
        });
        return { success: true as const, message: messages.transactionDeleted, reversal_txid: reversal.id };
      } catch (error) {
        if (error instanceof LedgerError && error.code === 'insufficient_funds') {
          throw AppError.of('CONFLICT', 'reversalWouldOverdraw');
        }
        // Two admins deleting at once: the unique reverses_id lets one through.
        if ((error as { code?: unknown }).code === '23505')
          throw AppError.of('CONFLICT', 'transactionAlreadyReversed');
        throw toAppError(error, ledger.limits);
      }
    },
  );
};
