import { randomBytes } from 'node:crypto';
import { messages } from '@hasta/contracts/messages';
import {
  approveVendorRequestSchema,
  approveVendorResponseSchema,
  bankAccountListSchema,
  bankAccountRequestSchema,
  merchantListResponseSchema,
  merchantPaymentsResponseSchema,
  merchantSettingsSchema,
  merchantSummarySchema,
  payoutDecisionSchema,
  withdrawalListSchema,
  withdrawalRequestSchema,
} from '@hasta/contracts/merchant';
import { successResponseSchema } from '@hasta/contracts/auth';
import {
  merchantPalmPaymentRequestSchema,
  palmConfirmationResponseSchema,
  palmPaymentResponseSchema,
} from '@hasta/contracts/palm';
import { idempotencyHeaderSchema } from '@hasta/contracts/wallet';
import {
  createQrCodeRequestSchema,
  formatPaymentUri,
  payeeNameForUri,
  qrCodeListSchema,
  qrCodeResponseSchema,
} from '@hasta/contracts/qr';
import { paiseToRupeesText } from '@hasta/ledger/money';
import { LedgerError } from '@hasta/ledger/rules';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql, type Selectable, type Transaction } from 'kysely';
import { z } from 'zod';
import { isUniqueViolation } from '../db/errors';
import type { MerchantQrCodesTable, MerchantsTable, Schema } from '../db/schema';
import { SYSTEM_ACCOUNT_ID, uuidFromText } from '../ledger/ledger';
import { listTransfers, statusOf } from '../ledger/queries';
import { AppError } from '../lib/app-error';
import { idempotencyKey } from './support/idempotency-key';
import { publicOrigin } from './support/public-origin';
import { balanceLimitError, paiseOf, toAppError } from '../ledger/ledger-errors';
import { takePalmPayment } from '../palm/take-palm-payment';
import { PALM_BODY_LIMIT_BYTES, palmPaymentAnswer, palmPaymentDeps } from './support/palm-payment';
import { generatePassword, hashPassword } from '../lib/password';
import { requireAdmin, requireUser } from '../plugins/auth';

/** Payouts wait for an admin; a week before the reservation lapses. */
const PAYOUT_TIMEOUT_MS = 7 * 24 * 60 * 60_000;
const LIST_LIMIT = 500;
/** A store keeps at most this many codes, so its list is always whole. */
const MAX_QR_CODES = LIST_LIMIT;
/** 16 random bytes: a printed code's id cannot be guessed from another's. */
const QR_TOKEN_BYTES = 16;

type MerchantRow = Selectable<MerchantsTable>;

const toMerchant = (row: MerchantRow) => ({
  id: row.id,
  store_name: row.store_name,
  owner_user_id: row.owner_user_id,
  contact_email: row.contact_email,
  contact_phone: row.contact_phone,
  created_at: row.created_at.toISOString(),
});

/** A store code as its merchant sees it, with the URI it prints (named with the store's current name). */
function toQrCode(row: Selectable<MerchantQrCodesTable>, storeName: string) {
  return {
    id: row.id,
    uri: formatPaymentUri({
      payee: { kind: 'store', id: row.merchant_id },
      payee_name: payeeNameForUri(storeName),
      ...(row.amount_paise === null ? {} : { amount_paise: row.amount_paise }),
      qr: row.token,
    }),
    label: row.label,
    amount: row.amount_paise === null ? null : paiseToRupeesText(row.amount_paise),
    scans: row.scans,
    created_at: row.created_at.toISOString(),
  };
}

export const merchantRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.database.db;
  const ledger = app.ledger;
  const tags = ['merchant'];
  const adminTags = ['admin'];

  /** The signed-in merchant's store; anyone else gets 403. */
  async function requireMerchant(request: FastifyRequest): Promise<MerchantRow & { accountId: string }> {
    const auth = await requireUser(request);
    const merchant =
      auth.user.role === 'merchant'
        ? await db
            .selectFrom('merchants')
            .selectAll()
            .where('owner_user_id', '=', auth.user.id)
            .executeTakeFirst()
        : undefined;
    if (!merchant) throw AppError.of('FORBIDDEN', 'merchantOnly');
    return { ...merchant, accountId: await ledger.ensureMerchantAccount(merchant.id) };
  }

  app.post(
    '/merchants',
    {
      schema: {
        tags: adminTags,
        summary: 'Admin: approve a vendor registration into a merchant account',
        body: approveVendorRequestSchema,
        response: { 200: approveVendorResponseSchema },
      },
    },
    async (request) => {
      await requireAdmin(request);
      const vendor = await db
        .selectFrom('vendor_registrations')
        .selectAll()
        .where('id', '=', request.body.vendorRegistrationId)
        .executeTakeFirst();
      if (!vendor) throw AppError.of('NOT_FOUND', 'vendorNotFound');
      const temporary = generatePassword();
      const temporaryHash = await hashPassword(temporary);
      let createdUser = false;
      const merchant = await db
        .transaction()
        .execute(async (trx) => {
          const existing = await trx
            .selectFrom('users')
            .selectAll()
            .where('email', '=', vendor.email)
            .executeTakeFirst();
          if (existing?.role === 'admin') throw AppError.of('CONFLICT', 'vendorAlreadyApproved');
          let ownerId = existing?.id;
          if (existing) {
            await trx
              .updateTable('users')
              .set({ role: 'merchant', updated_at: new Date() })
              .where('id', '=', existing.id)
              .execute();
          } else {
            createdUser = true;
            ownerId = (
              await trx
                .insertInto('users')
                .values({
                  email: vendor.email,
                  username: vendor.owner_name.slice(0, 100).padEnd(2, '.'),
                  role: 'merchant',
                  password_hash: temporaryHash,
                  must_change_password: true,
                })
                .returning('id')
                .executeTakeFirstOrThrow()
            ).id;
          }
          return trx
            .insertInto('merchants')
            .values({
              owner_user_id: ownerId!,
              store_name: vendor.business_name,
              contact_email: vendor.email,
              contact_phone: vendor.phone,
              vendor_registration_id: vendor.id,
            })
            .returningAll()
            .executeTakeFirstOrThrow();
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) throw AppError.of('CONFLICT', 'vendorAlreadyApproved');
          throw error;
        });
      await ledger.ensureMerchantAccount(merchant.id);
      await app.messenger.send({
        channel: 'email',
        to: vendor.email,
        subject: 'Your Hasta merchant account is ready',
        body: createdUser
          ? `Welcome to Hasta, ${vendor.business_name}. Log in at ${publicOrigin(request)}/login with ${vendor.email} and the temporary password ${temporary}. You will be asked to choose your own password first.`
          : `Welcome to Hasta, ${vendor.business_name}. Your account ${vendor.email} is now a merchant account: log in at ${publicOrigin(request)}/login and open the merchant dashboard.`,
      });
      return { success: true as const, message: messages.merchantApproved, merchant: toMerchant(merchant) };
    },
  );

  app.get(
    '/merchants',
    {
      schema: { tags: adminTags, summary: 'Admin: merchants', response: { 200: merchantListResponseSchema } },
    },
    async (request) => {
      await requireAdmin(request);
      const rows = await db
        .selectFrom('merchants')
        .selectAll()
        .orderBy('created_at', 'desc')
        .limit(LIST_LIMIT)
        .execute();
      return { merchants: rows.map(toMerchant) };
    },
  );

  app.get(
    '/merchant/summary',
    {
      schema: {
        tags,
        summary: 'The store’s figures, from the ledger',
        response: { 200: merchantSummarySchema },
      },
    },
    async (request) => {
      const merchant = await requireMerchant(request);
      const account = (await ledger.account(merchant.accountId))!;
      const incoming = (
        await listTransfers(db, { accountId: merchant.accountId, limit: 10_000, includeReversed: true })
      ).filter((view) => view.credit_account_id === merchant.accountId);
      const completed = incoming.filter((view) => statusOf(view) === 'completed');
      const sales = completed.reduce((sum, view) => sum + view.amount_paise, 0n);
      const attempts = incoming.filter((view) => statusOf(view) !== 'pending').length;
      const withdrawals = await db
        .selectFrom('merchant_payouts')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<string>('amount_paise'), sql<string>`0`).as('total'))
        .where('merchant_id', '=', merchant.id)
        .where('status', '=', 'settled')
        .executeTakeFirstOrThrow();
      const qrCodes = await db
        .selectFrom('merchant_qr_codes')
        .select((eb) => [
          eb.fn.countAll<string>().as('count'),
          eb.fn.coalesce(eb.fn.sum<string>('scans'), sql<string>`0`).as('scans'),
        ])
        .where('merchant_id', '=', merchant.id)
        .executeTakeFirstOrThrow();
      return {
        store_name: merchant.store_name,
        balance: paiseToRupeesText(account.creditsPosted - account.debitsPosted),
        available_balance: paiseToRupeesText(
          account.creditsPosted - account.debitsPosted - account.debitsPending,
        ),
        total_sales: paiseToRupeesText(sales),
        total_transactions: completed.length,
        average_transaction: paiseToRupeesText(
          completed.length === 0 ? 0n : sales / BigInt(completed.length),
        ),
        success_rate: attempts === 0 ? 0 : Math.round((completed.length / attempts) * 1000) / 10,
        total_withdrawals: paiseToRupeesText(BigInt(withdrawals.total)),
        total_customers: new Set(completed.map((view) => view.debit_account_id)).size,
        total_qr_codes_generated: Number(qrCodes.count),
        total_qr_scans: Number(qrCodes.scans),
        total_palm_scans: incoming.filter((view) => view.kind === 'payment').length,
      };
    },
  );

  app.post(
    '/transaction',
    {
      bodyLimit: PALM_BODY_LIMIT_BYTES,
      schema: {
        tags,
        summary: 'Merchant: take a palm payment into the signed-in store (the palm names the payer)',
        headers: idempotencyHeaderSchema,
        body: merchantPalmPaymentRequestSchema,
        response: { 200: palmPaymentResponseSchema, 202: palmConfirmationResponseSchema },
      },
    },
    async (request, reply) => {
      const merchant = await requireMerchant(request);
      const outcome = await takePalmPayment(palmPaymentDeps(app, request.log), {
        scan: request.body.scan,
        amountPaise: paiseOf(request.body.amount, ledger.limits),
        receiverUserId: merchant.owner_user_id,
        creditAccountId: merchant.accountId,
        idempotencyKey: idempotencyKey(request),
      });
      return palmPaymentAnswer(outcome, reply, messages.paymentProcessed);
    },
  );

  app.get(
    '/merchant/payments',
    {
      schema: {
        tags,
        summary: 'Payments the store received, newest first',
        response: { 200: merchantPaymentsResponseSchema },
      },
    },
    async (request) => {
      const merchant = await requireMerchant(request);
      const views = await listTransfers(db, {
        accountId: merchant.accountId,
        limit: LIST_LIMIT,
        includeReversed: true,
      });
      return {
        payments: views
          .filter((view) => view.credit_account_id === merchant.accountId)
          .map((view) => ({
            txid: view.id,
            amount: paiseToRupeesText(view.amount_paise),
            status: statusOf(view),
            created_at: view.created_at.toISOString(),
            customer: view.from_email,
          })),
      };
    },
  );

  app.get(
    '/merchant/settings',
    { schema: { tags, summary: 'The store’s settings', response: { 200: merchantSettingsSchema } } },
    async (request) => {
      const merchant = await requireMerchant(request);
      return {
        store_name: merchant.store_name,
        contact_email: merchant.contact_email,
        contact_phone: merchant.contact_phone,
        notify_email: merchant.notify_email,
        notify_sms: merchant.notify_sms,
      };
    },
  );

  app.put(
    '/merchant/settings',
    {
      schema: {
        tags,
        summary: 'Save the store’s settings',
        body: merchantSettingsSchema,
        response: { 200: merchantSettingsSchema },
      },
    },
    async (request) => {
      const merchant = await requireMerchant(request);
      const saved = await db
        .updateTable('merchants')
        .set(request.body)
        .where('id', '=', merchant.id)
        .returning(['store_name', 'contact_email', 'contact_phone', 'notify_email', 'notify_sms'])
        .executeTakeFirstOrThrow();
      return saved;
    },
  );

  app.get(
    '/merchant/qr-codes',
    {
      schema: {
        tags,
        summary: 'The store’s payment QR codes, newest first, with how often each was scanned',
        response: { 200: qrCodeListSchema },
      },
    },
    async (request) => {
      const merchant = await requireMerchant(request);
      const rows = await db
        .selectFrom('merchant_qr_codes')
        .selectAll()
        .where('merchant_id', '=', merchant.id)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .limit(LIST_LIMIT)
        .execute();
      return { qr_codes: rows.map((row) => toQrCode(row, merchant.store_name)) };
    },
  );

  app.post(
    '/merchant/qr-codes',
    {
      schema: {
        tags,
        summary:
          'Generate a payment QR code for the store (hasta://pay URI), optionally for a fixed amount, with a label',
        body: createQrCodeRequestSchema,
        response: { 200: qrCodeResponseSchema },
      },
    },
    async (request) => {
      const merchant = await requireMerchant(request);
      let amountPaise: bigint | null = null;
      if (request.body.amount !== undefined) {
        amountPaise = paiseOf(request.body.amount, ledger.limits);
        // A code no wallet could ever pay in one go is refused now rather than at the till.
        if (amountPaise > ledger.limits.maxBalancePaise) throw balanceLimitError(ledger.limits);
      }
      const label = request.body.label === undefined || request.body.label === '' ? null : request.body.label;
      const row = await db.transaction().execute(async (trx) => {
        // The store row is locked so two requests cannot both pass the count.
        await trx.selectFrom('merchants').select('id').where('id', '=', merchant.id).forUpdate().execute();
        const { count } = await trx
          .selectFrom('merchant_qr_codes')
          .select((eb) => eb.fn.countAll<string>().as('count'))
          .where('merchant_id', '=', merchant.id)
          .executeTakeFirstOrThrow();
        if (Number(count) >= MAX_QR_CODES) throw AppError.of('CONFLICT', 'qrLimitReached');
        return trx
          .insertInto('merchant_qr_codes')
          .values({
            merchant_id: merchant.id,
            token: randomBytes(QR_TOKEN_BYTES).toString('base64url'),
            amount_paise: amountPaise,
            label,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
      });
      return { message: messages.qrCreated, qr_code: toQrCode(row, merchant.store_name) };
    },
  );

  const toBankAccount = (row: { id: string; holder_name: string; account_number: string; ifsc: string }) => ({
    id: row.id,
    holder_name: row.holder_name,
    account_number_last4: row.account_number.slice(-4),
    ifsc: row.ifsc,
  });

  async function listBankAccounts(merchantId: string) {
    const rows = await db
      .selectFrom('merchant_bank_accounts')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .orderBy('created_at')
      .execute();
    return rows.map(toBankAccount);
  }

  app.get(
    '/merchant/bank-accounts',
    { schema: { tags, summary: 'The store’s bank accounts', response: { 200: bankAccountListSchema } } },
    async (request) => {
      const merchant = await requireMerchant(request);
      return { bank_accounts: await listBankAccounts(merchant.id) };
    },
  );

  app.post(
    '/merchant/bank-accounts',
    {
      schema: {
        tags,
        summary: 'Save a bank account for withdrawals',
        body: bankAccountRequestSchema,
        response: { 200: bankAccountListSchema },
      },
    },
    async (request) => {
      const merchant = await requireMerchant(request);
      await db
        .insertInto('merchant_bank_accounts')
        .values({ merchant_id: merchant.id, ...request.body })
        .execute();
      return { bank_accounts: await listBankAccounts(merchant.id) };
    },
  );

  async function listWithdrawals(where: { merchantId?: string }) {
    let query = db
      .selectFrom('merchant_payouts')
      .innerJoin('merchant_bank_accounts', 'merchant_bank_accounts.id', 'merchant_payouts.bank_account_id')
      .innerJoin('merchants', 'merchants.id', 'merchant_payouts.merchant_id')
      .select([
        'merchant_payouts.id',
        'merchant_payouts.amount_paise',
        'merchant_payouts.status',
        'merchant_payouts.created_at',
        'merchant_bank_accounts.account_number',
        'merchants.store_name',
      ])
      .orderBy('merchant_payouts.created_at', 'desc')
      .limit(LIST_LIMIT);
    if (where.merchantId) query = query.where('merchant_payouts.merchant_id', '=', where.merchantId);
    const rows = await query.execute();
    return rows.map((row) => ({
      id: row.id,
      amount: paiseToRupeesText(row.amount_paise),
      status: row.status,
      date: row.created_at.toISOString(),
      bank_account_last4: row.account_number.slice(-4),
      store_name: row.store_name,
    }));
  }

  app.get(
    '/merchant/withdrawals',
    { schema: { tags, summary: 'The store’s withdrawals', response: { 200: withdrawalListSchema } } },
    async (request) => {
      const merchant = await requireMerchant(request);
      return { withdrawals: await listWithdrawals({ merchantId: merchant.id }) };
    },
  );

  app.post(
    '/merchant/withdrawals',
    {
      schema: {
        tags,
        summary:
          'Withdraw to a saved bank account: the amount is reserved until an admin settles or rejects it',
        headers: idempotencyHeaderSchema,
        body: withdrawalRequestSchema,
        response: { 200: successResponseSchema },
      },
    },
    async (request) => {
      const merchant = await requireMerchant(request);
      // The amount is input: checked before anything is looked up.
      const amountPaise = paiseOf(request.body.amount, ledger.limits);
      const bank = await db
        .selectFrom('merchant_bank_accounts')
        .select('id')
        .where('id', '=', request.body.bank_account_id)
        .where('merchant_id', '=', merchant.id)
        .executeTakeFirst();
      if (!bank) throw AppError.of('NOT_FOUND', 'bankAccountNotFound');
      const key = idempotencyKey(request);
      try {
        await ledger.transfer({
          id: key ? uuidFromText(`payout:${merchant.id}:${key}`) : crypto.randomUUID(),
          debitAccountId: merchant.accountId,
          creditAccountId: SYSTEM_ACCOUNT_ID,
          amountPaise,
          kind: 'payout',
          pending: { timeoutMs: PAYOUT_TIMEOUT_MS },
          binds: `bank_account:${bank.id}`,
          initiatedBy: merchant.owner_user_id,
          onRecorded: async (trx, transfer) => {
            await trx
              .insertInto('merchant_payouts')
              .values({
                id: transfer.id,
                merchant_id: merchant.id,
                bank_account_id: bank.id,
                amount_paise: amountPaise,
              })
              .execute();
          },
        });
      } catch (error) {
        throw toAppError(error, ledger.limits);
      }
      return { success: true as const, message: messages.withdrawalRequested };
    },
  );

  type PayoutOutcome = 'settled' | 'rejected' | 'expired';
  const PAYOUT_NOTICES: Record<PayoutOutcome, { subject: string; tail: string }> = {
    settled: { subject: 'Withdrawal settled', tail: 'was settled to your bank account.' },
    rejected: {
      subject: 'Withdrawal rejected',
      tail: 'was rejected; the amount is back in your store balance.',
    },
    expired: {
      subject: 'Withdrawal expired',
      tail: 'was not settled in time; the amount is back in your store balance.',
    },
  };

  /**
   * Tells the store about a settled, rejected or expired withdrawal on the channels its settings chose. The
   * decision is already in the ledger: a message that cannot be sent is logged, never a failed decision.
   */
  async function notifyPayoutDecision(merchantId: string, amountPaise: bigint, outcome: PayoutOutcome) {
    const store = await db
      .selectFrom('merchants')
      .selectAll()
      .where('id', '=', merchantId)
      .executeTakeFirst();
    if (!store) return;
    const notice = PAYOUT_NOTICES[outcome];
    const body = `Your withdrawal of Rs ${paiseToRupeesText(amountPaise)} from ${store.store_name} ${notice.tail}`;
    const sends: Promise<void>[] = [];
    if (store.notify_email && store.contact_email)
      sends.push(
        app.messenger.send({ channel: 'email', to: store.contact_email, subject: notice.subject, body }),
      );
    if (store.notify_sms && store.contact_phone)
      sends.push(app.messenger.send({ channel: 'sms', to: store.contact_phone, body }));
    for (const result of await Promise.allSettled(sends)) {
      if (result.status === 'rejected') app.log.warn({ err: result.reason }, 'payout notice not sent');
    }
  }

  /** The withdrawal's row changes in the same transaction as its resolution in the ledger. */
  function markPayout(status: PayoutOutcome, resolvedBy: string | null) {
    return async (trx: Transaction<Schema>, pending: { id: string }) => {
      await trx
        .updateTable('merchant_payouts')
        .set({ status, resolved_at: new Date(), resolved_by: resolvedBy })
        .where('id', '=', pending.id)
        .where('status', '=', 'pending')
        .execute();
    };
  }

  // A withdrawal nobody settled or rejected within PAYOUT_TIMEOUT_MS is voided by the ledger's expiry round.
  app.pendingExpiry.on('payout', {
    inTransaction: markPayout('expired', null),
    afterCommit: async (pending) => {
      const payout = await db
        .selectFrom('merchant_payouts')
        .select('merchant_id')
        .where('id', '=', pending.id)
        .executeTakeFirst();
      if (payout) await notifyPayoutDecision(payout.merchant_id, pending.amount_paise, 'expired');
    },
  });

  app.get(
    '/payouts',
    {
      schema: {
        tags: adminTags,
        summary: 'Admin: merchant withdrawals',
        response: { 200: withdrawalListSchema },
      },
    },
    async (request) => {
      await requireAdmin(request);
      return { withdrawals: await listWithdrawals({}) };
    },
  );

  app.post(
    '/payouts/:id',
    {
      schema: {
        tags: adminTags,
        summary:
          'Admin: settle (money leaves to the bank) or reject (money returns to the store) a withdrawal',
        params: z.object({ id: z.uuid(messages.payoutNotFound) }),
        body: payoutDecisionSchema,
        response: { 200: successResponseSchema },
      },
    },
    async (request) => {
      const admin = await requireAdmin(request);
      const payout = await db
        .selectFrom('merchant_payouts')
        .selectAll()
        .where('id', '=', request.params.id)
        .executeTakeFirst();
      if (!payout) throw AppError.of('NOT_FOUND', 'payoutNotFound');
      if (payout.status === 'expired') throw AppError.of('CONFLICT', 'payoutExpired');
      const action = request.body.action === 'settle' ? 'post' : 'void';
      const outcome = action === 'post' ? 'settled' : 'rejected';
      try {
        await ledger.resolve({
          id: uuidFromText(`payout-decision:${payout.id}`),
          pendingId: payout.id,
          action,
          initiatedBy: admin.user.id,
          onRecorded: markPayout(outcome, admin.user.id),
        });
      } catch (error) {
        if (error instanceof LedgerError && error.code === 'pending_expired') {
          // Settled too late: the money goes back to the store now rather than at the next expiry round.
          await app.pendingExpiry.expireNow(payout.id);
          throw AppError.of('CONFLICT', 'payoutExpired');
        }
        if (error instanceof LedgerError) throw AppError.of('CONFLICT', 'payoutAlreadyResolved');
        throw error;
      }
      await notifyPayoutDecision(payout.merchant_id, payout.amount_paise, outcome);
      return {
        success: true as const,
        message: action === 'post' ? messages.payoutSettled : messages.payoutRejected,
      };
    },
  );
};
