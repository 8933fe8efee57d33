import {
  formatPaymentUri,
  parsePaymentUri,
  payeeNameForUri,
  paymentUriResponseSchema,
  qrResolveRequestSchema,
  qrResolveResponseSchema,
  receiveQrQuerySchema,
} from '@hasta/contracts/qr';
import { paiseToRupeesText, parseRupees } from '@hasta/ledger/money';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { AppError } from '../lib/app-error';
import { requireUser } from '../plugins/auth';

/**
 * Paying by QR code (packages/contracts/src/qr.ts): a person's own receive code, and the payer's side of a scan.
 * A scan only names the payee and the amount; the money then moves through POST /api/transfer and its OTP.
 */
export const qrRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.database.db;
  const tags = ['wallet'];

  app.get(
    '/qr/receive',
    {
      schema: {
        tags,
        summary: 'The signed-in person’s own payment QR URI, optionally asking for a fixed amount',
        querystring: receiveQrQuerySchema,
        response: { 200: paymentUriResponseSchema },
      },
    },
    async (request) => {
      const auth = await requireUser(request);
      const amountPaise = request.query.amount === undefined ? null : parseRupees(request.query.amount);
      if (request.query.amount !== undefined && (amountPaise === null || amountPaise <= 0n))
        throw AppError.of('BAD_REQUEST', 'invalidAmount');
      const payeeName = payeeNameForUri(auth.user.username);
      return {
        payee_name: payeeName,
        uri: formatPaymentUri({
          payee: { kind: 'user', id: auth.user.id },
          payee_name: payeeName,
          ...(amountPaise === null ? {} : { amount_paise: amountPaise }),
        }),
      };
    },
  );

  app.post(
    '/qr/resolve',
    {
      schema: {
        tags,
        summary:
          'A scanned payment QR: who gets the money (name, account email/phone) and any fixed amount; counts a store code’s scan',
        body: qrResolveRequestSchema,
        response: { 200: qrResolveResponseSchema },
      },
    },
    async (request) => {
      const auth = await requireUser(request);
      const payment = parsePaymentUri(request.body.uri);
      if (payment === null) throw AppError.of('BAD_REQUEST', 'invalidQr');
      const amountText = (paise: bigint | null | undefined) =>
        paise === null || paise === undefined ? null : paiseToRupeesText(paise);

      if (payment.payee.kind === 'user') {
        if (payment.payee.id === auth.user.id) throw AppError.of('BAD_REQUEST', 'ownQr');
        const payee = await db
          .selectFrom('users')
          .select(['username', 'email', 'phone'])
          .where('id', '=', payment.payee.id)
          .executeTakeFirst();
        if (!payee) throw AppError.of('NOT_FOUND', 'qrNotFound');
        return {
          payee_kind: 'user' as const,
          payee_name: payee.username,
          receiverEmail: payee.email,
          receiverPhone: payee.phone,
          amount: amountText(payment.amount_paise),
        };
      }

      const store = await db
        .selectFrom('merchants')
        .innerJoin('users', 'users.id', 'merchants.owner_user_id')
        .select(['merchants.store_name', 'merchants.owner_user_id', 'users.email', 'users.phone'])
        .where('merchants.id', '=', payment.payee.id)
        .executeTakeFirst();
      if (!store) throw AppError.of('NOT_FOUND', 'qrNotFound');
      if (store.owner_user_id === auth.user.id) throw AppError.of('BAD_REQUEST', 'ownQr');
      let amountPaise = payment.amount_paise ?? null;
      if (payment.qr !== undefined) {
        const code = await db
          .selectFrom('merchant_qr_codes')
          .select(['id', 'amount_paise'])
          .where('token', '=', payment.qr)
          .where('merchant_id', '=', payment.payee.id)
          .executeTakeFirst();
        if (!code) throw AppError.of('NOT_FOUND', 'qrNotFound');
        // The printed amount must be the one the store set: an edited code is not this store's code.
        if (code.amount_paise !== amountPaise) throw AppError.of('BAD_REQUEST', 'invalidQr');
        amountPaise = code.amount_paise;
        await db
          .updateTable('merchant_qr_codes')
          .set({ scans: sql<number>`scans + 1`, last_scanned_at: new Date() })
          .where('id', '=', code.id)
          .execute();
      }
      return {
        payee_kind: 'store' as const,
        payee_name: store.store_name,
        receiverEmail: store.email,
        receiverPhone: store.phone,
        amount: amountText(amountPaise),
      };
    },
  );
};
