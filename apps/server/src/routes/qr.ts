import {
  paymentUriResponseSchema,
  qrResolveRequestSchema,
  qrResolveResponseSchema,
  receiveQrQuerySchema,
} from '@hasta/contracts/qr';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireUser } from '../plugins/auth';
import { receivePaymentQr } from '../qr/receive-qr';
import { resolvePaymentQr, type QrDeps } from '../qr/resolve-payment-qr';

/**
 * Paying by QR code (packages/contracts/src/qr.ts): a person's own receive code, and the payer's side of a scan.
 * A scan only names the payee and the amount; the money then moves through POST /api/transfer and its OTP.
 */
export const qrRoutes: FastifyPluginAsyncZod<{ deps: QrDeps }> = async (app, { deps }) => {
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
      return receivePaymentQr({ user: auth.user, amount: request.query.amount });
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
      return resolvePaymentQr(deps, { uri: request.body.uri, payerId: auth.user.id });
    },
  );
};
