import { messages } from '@hasta/contracts/messages';
import {
  bankAccountListSchema,
  bankAccountRequestSchema,
  merchantPaymentsResponseSchema,
  merchantSettingsAnswerSchema,
  merchantSettingsSchema,
  merchantSummarySchema,
  resendStoreContactRequestSchema,
  resendStoreContactResponseSchema,
  verifyStoreContactRequestSchema,
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
import { createQrCodeRequestSchema, qrCodeListSchema, qrCodeResponseSchema } from '@hasta/contracts/qr';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { paiseOf } from '../ledger/ledger-errors';
import { addBankAccount, storeBankAccounts } from '../merchant/bank-accounts';
import type { MerchantDeps } from '../merchant/merchant-deps';
import { requestWithdrawal, storeWithdrawals } from '../merchant/payouts';
import { storePayments } from '../merchant/store-payments';
import { createStoreQrCode, storeQrCodes } from '../merchant/store-qr-codes';
import {
  resendStoreContactCode,
  saveStoreSettings,
  storeSettings,
  verifyStoreContact,
} from '../merchant/store-settings';
import { storeSummary } from '../merchant/store-summary';
import { takePalmPayment } from '../palm/take-palm-payment';
import {
  PALM_BODY_LIMIT_BYTES,
  palmPaymentAnswer,
  palmPaymentDeps,
  receivingDevice,
  PALM_GUARDED_TAG,
} from './support/palm-payment';
import { publicOrigin } from './support/public-origin';
import { idempotencyKey } from './support/idempotency-key';
import { clientKey } from './support/client-key';
import { requireMerchant, requireStoreSession } from './support/require-merchant';
import { deviceDeps, deviceToken, requireSignedScan } from './support/signed-scan';
import { storeOfTerminal } from '../merchant/signed-in-store';
import { authenticate } from '../plugins/auth';
import { AppError } from '../lib/app-error';

/** The store's self-service (spec §3, merchant dashboard): every route here is for the store's own merchant. */
export const merchantStoreRoutes: FastifyPluginAsyncZod<{ deps: MerchantDeps }> = async (app, options) => {
  const deps = options.deps;
  const { ledger } = deps;
  const tags = ['merchant'];
  const devices = deviceDeps(app, deps.db);

  app.get(
    '/merchant/summary',
    {
      schema: {
        tags,
        summary: 'The store’s figures, from the ledger',
        response: { 200: merchantSummarySchema },
      },
    },
    async (request) => storeSummary(deps, await requireMerchant(request, deps)),
  );

  app.post(
    '/transaction',
    {
      bodyLimit: PALM_BODY_LIMIT_BYTES,
      schema: {
        tags: [...tags, PALM_GUARDED_TAG],
        summary:
          'Take a palm payment into a store (the palm names the payer): on a paired terminal of the store, ' +
          'with its signed scan challenge; the owner signed in beside it or not',
        headers: idempotencyHeaderSchema,
        body: merchantPalmPaymentRequestSchema,
        response: { 200: palmPaymentResponseSchema, 202: palmConfirmationResponseSchema },
      },
    },
    async (request, reply) => {
      // A terminal takes payments alone (its device credential) or with its store's owner signed in beside it.
      const auth = await authenticate(request);
      if (!auth && deviceToken(request) === undefined) throw AppError.of('UNAUTHORIZED', 'unauthorized');
      const signedIn = auth ? await requireMerchant(request, deps) : undefined;
      const amountPaise = paiseOf(request.body.amount, ledger.limits);
      const device = await requireSignedScan(request, devices, {
        purpose: 'pay',
        sessionUserId: auth?.user.id,
        amountPaise,
        body: request.body,
      });
      const merchant = signedIn ?? (await storeOfTerminal(deps, device.merchantId));
      const outcome = await takePalmPayment(palmPaymentDeps(app, request.log), {
        scan: request.body.scan,
        amountPaise,
        receiverUserId: merchant.ownerUserId,
        creditAccountId: merchant.accountId,
        idempotencyKey: idempotencyKey(request),
        linkOrigin: publicOrigin(request),
        device: receivingDevice(request),
        deviceId: device.id,
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
    async (request) => ({ payments: await storePayments(deps, await requireMerchant(request, deps)) }),
  );

  app.get(
    '/merchant/settings',
    { schema: { tags, summary: 'The store’s settings', response: { 200: merchantSettingsAnswerSchema } } },
    async (request) => storeSettings(await requireMerchant(request, deps)),
  );

  app.put(
    '/merchant/settings',
    {
      schema: {
        tags,
        summary:
          'Save the store’s settings; a new contact email or phone is shown to payers once its code is verified',
        body: merchantSettingsSchema,
        response: { 200: merchantSettingsAnswerSchema },
      },
    },
    async (request) =>
      saveStoreSettings(deps, await requireStoreSession(request, deps), request.body, clientKey(request)),
  );

  app.post(
    '/merchant/settings/verify-contact',
    {
      schema: {
        tags,
        summary: 'Verify the store’s new contact email or phone with the code sent to it',
        body: verifyStoreContactRequestSchema,
        response: { 200: merchantSettingsAnswerSchema },
      },
    },
    async (request) =>
      verifyStoreContact(deps, await requireStoreSession(request, deps), {
        channel: request.body.channel,
        code: request.body.otp,
        client: clientKey(request),
      }),
  );

  app.post(
    '/merchant/settings/verify-contact/send',
    {
      schema: {
        tags,
        summary: 'Send the code again to the store’s contact that waits for one',
        body: resendStoreContactRequestSchema,
        response: { 200: resendStoreContactResponseSchema },
      },
    },
    async (request) => {
      const { sentTo } = await resendStoreContactCode(
        deps,
        await requireStoreSession(request, deps),
        request.body.channel,
        clientKey(request),
      );
      const message = request.body.channel === 'email' ? messages.otpSentEmail : messages.otpSentPhone;
      return { success: true as const, message, sent_to: sentTo };
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
    async (request) => ({ qr_codes: await storeQrCodes(deps, await requireMerchant(request, deps)) }),
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
      const merchant = await requireMerchant(request, deps);
      const { amount, label } = request.body;
      const qrCode = await createStoreQrCode(deps, merchant, {
        amountPaise: amount === undefined ? null : paiseOf(amount, ledger.limits),
        label: label === undefined || label === '' ? null : label,
      });
      return { message: messages.qrCreated, qr_code: qrCode };
    },
  );

  app.get(
    '/merchant/bank-accounts',
    { schema: { tags, summary: 'The store’s bank accounts', response: { 200: bankAccountListSchema } } },
    async (request) => ({
      bank_accounts: await storeBankAccounts(deps, await requireMerchant(request, deps)),
    }),
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
    async (request) => ({
      // The step-up is read on the clock the step-up routes write it on (the app's, injectable in tests).
      bank_accounts: await addBankAccount(
        deps,
        await requireStoreSession(request, deps),
        request.body,
        app.sessionClock(),
      ),
    }),
  );

  app.get(
    '/merchant/withdrawals',
    { schema: { tags, summary: 'The store’s withdrawals', response: { 200: withdrawalListSchema } } },
    async (request) => ({ withdrawals: await storeWithdrawals(deps, await requireMerchant(request, deps)) }),
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
      const merchant = await requireStoreSession(request, deps);
      // The amount is input: checked before anything is looked up.
      const amountPaise = paiseOf(request.body.amount, ledger.limits);
      await requestWithdrawal(
        deps,
        merchant,
        {
          amountPaise,
          bankAccountId: request.body.bank_account_id,
          idempotencyKey: idempotencyKey(request),
        },
        app.sessionClock(),
      );
      return { success: true as const, message: messages.withdrawalRequested };
    },
  );
};
