import { normalizeEmail, normalizePhone } from '@hasta/contracts/identity';
import { messages } from '@hasta/contracts/messages';
import {
  consentChangeResponseSchema,
  consentResponseSchema,
  palmAuthenticateRequestSchema,
  palmCancelRequestSchema,
  palmConfigResponseSchema,
  palmConfirmationResponseSchema,
  palmConfirmRequestSchema,
  palmPaymentResponseSchema,
  palmRegisterRequestSchema,
  palmRegisterResponseSchema,
  palmRegistrationStateRequestSchema,
  palmRegistrationStateResponseSchema,
} from '@hasta/contracts/palm';
import { palmEnrolmentPendingResponseSchema } from '@hasta/contracts/palm-trust';
import { successResponseSchema } from '@hasta/contracts/auth';
import { idempotencyHeaderSchema } from '@hasta/contracts/wallet';
import { paiseToRupeesText } from '@hasta/ledger/money';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  erasePalmData,
  restorePalmConsent,
  viewPalmConsent,
  withdrawPalmConsent,
  type PalmConsentDeps,
} from '../consent/palm-consent';
import { paiseOf } from '../ledger/ledger-errors';
import { AppError } from '../lib/app-error';
import { cancelPalmPayment, confirmPalmPayment } from '../palm/palm-payment-confirmation';
import { receivePalmPayment } from '../palm/receive-palm-payment';
import { palmRegistrationState, registerPalm, type PalmRegistrationDeps } from '../palm/register-palm';
import { actingFor, requireUser } from '../plugins/auth';
import { idempotencyKey } from './support/idempotency-key';
import { publicOrigin } from './support/public-origin';
import { deviceDeps, requirePaymentTaker, requireSignedScan } from './support/signed-scan';
import {
  PALM_BODY_LIMIT_BYTES,
  palmConfirmationDeps,
  palmPaidAnswer,
  palmPaymentAnswer,
  palmPaymentDeps,
  receivingDevice,
  PALM_GUARDED_TAG,
} from './support/palm-payment';

/**
 * Palm registration and palm payments (spec §7 `/Palm/*`), and the person's consent (Consent tab):
 * withdrawing stops palm payments at once; erasing deletes the templates and shreds the log records.
 */
export const palmRoutes: FastifyPluginAsyncZod<{ deps: Pick<PalmRegistrationDeps, 'db'> }> = async (
  app,
  { deps: { db } },
) => {
  const palm = app.palm;
  const tags = ['palm'];
  const notices = app.ownerNotices;
  const consentDeps: PalmConsentDeps = {
    consents: app.palmConsents,
    palm,
    transparencyLog: app.transparencyLog,
    notices,
  };
  const registrationDeps: PalmRegistrationDeps = {
    db,
    consents: app.palmConsents,
    palm,
    messenger: app.messenger,
    secret: app.env.COOKIE_SECRET,
    rewards: app.rewards,
  };
  const devices = deviceDeps(app, db);

  app.get(
    '/Palm/config',
    {
      schema: {
        tags,
        summary: 'What the palm scanner may send here',
        response: { 200: palmConfigResponseSchema },
      },
    },
    async () => ({
      demo_mode: palm.options.demoMode,
      max_payment: paiseToRupeesText(palm.options.maxPaymentPaise),
    }),
  );

  app.post(
    '/Palm/register',
    {
      bodyLimit: PALM_BODY_LIMIT_BYTES,
      schema: {
        tags: [...tags, PALM_GUARDED_TAG],
        summary:
          'Register one of your hands on a paired device, its scan signed (consent given with it; needs a ' +
          'palm_enrol step-up of this session), ' +
          'or, as an admin, start a registration for another user that they approve with a code (202)',
        body: palmRegisterRequestSchema,
        response: { 200: palmRegisterResponseSchema, 202: palmEnrolmentPendingResponseSchema },
      },
    },
    async (request, reply) => {
      const auth = await requireUser(request);
      const userId = actingFor(auth, request.body.user_id);
      const hand = request.body.which_hand;
      const device = await requireSignedScan(request, devices, {
        purpose: 'enrol',
        sessionUserId: auth.user.id,
        amountPaise: null,
        body: request.body,
      });
      const outcome = await registerPalm(registrationDeps, {
        caller: { userId: auth.user.id, sessionId: auth.sessionId },
        userId,
        hand,
        scan: request.body.scan,
        origin: publicOrigin(request),
        deviceId: device.id,
        deviceKind: device.kind,
      });
      if (outcome.kind === 'pending') {
        return reply.code(202).send({
          success: true as const,
          state: false as const,
          approval_required: true as const,
          message: messages.palmEnrolmentApprovalSent,
          request: outcome.request,
        });
      }
      return {
        success: true as const,
        state: true as const,
        message: `${hand === 'left' ? 'Left' : 'Right'} hand has been registered successfully.`,
        which_hand: hand,
        palm_hash: outcome.palmHash,
      };
    },
  );

  app.post(
    '/Palm/user/palm-registration-state',
    {
      schema: {
        tags,
        summary: 'Which hands of a user are registered (their own; an admin may name anyone)',
        body: palmRegistrationStateRequestSchema,
        response: { 200: palmRegistrationStateResponseSchema },
      },
    },
    async (request) => {
      const userId = actingFor(await requireUser(request), request.body.user_id);
      const hands = await palmRegistrationState(registrationDeps, userId);
      return { left_hand_registered: hands.left, right_hand_registered: hands.right };
    },
  );

  app.post(
    '/Palm/authenticate',
    {
      bodyLimit: PALM_BODY_LIMIT_BYTES,
      schema: {
        tags: [...tags, PALM_GUARDED_TAG],
        summary:
          'Receive money by palm on your own paired browser, its scan signed: the palm names the payer, the ' +
          'money comes to the signed-in user',
        headers: idempotencyHeaderSchema,
        body: palmAuthenticateRequestSchema,
        response: { 200: palmPaymentResponseSchema, 202: palmConfirmationResponseSchema },
      },
    },
    async (request, reply) => {
      const auth = await requireUser(request);
      const { receiverEmail, receiverPhone, amount, scan } = request.body;
      // The spec's client names the receiver; the money only ever goes to the caller.
      if (receiverEmail && normalizeEmail(receiverEmail) !== auth.user.email)
        throw AppError.of('FORBIDDEN', 'receiverNotCaller');
      if (receiverPhone && normalizePhone(receiverPhone) !== auth.user.phone)
        throw AppError.of('FORBIDDEN', 'receiverNotCaller');
      const amountPaise = paiseOf(amount, app.ledger.limits);
      const device = await requireSignedScan(request, devices, {
        purpose: 'receive',
        sessionUserId: auth.user.id,
        amountPaise,
        body: request.body,
      });
      const outcome = await receivePalmPayment(palmPaymentDeps(app, request.log), {
        receiver: { id: auth.user.id, role: auth.user.role },
        amountPaise,
        scan,
        idempotencyKey: idempotencyKey(request),
        linkOrigin: publicOrigin(request),
        device: receivingDevice(request),
        deviceId: device.id,
      });
      return palmPaymentAnswer(outcome, reply, messages.authenticationSuccessful);
    },
  );

  // A palm payment waiting for the payer's code: whoever takes the payment (a person or a store's owner)
  // confirms it with the code, or cancels it.

  app.post(
    '/Palm/authenticate/confirm',
    {
      schema: {
        tags: [...tags, PALM_GUARDED_TAG],
        summary: 'Confirm a palm payment above the palm limit with the code sent to the payer',
        body: palmConfirmRequestSchema,
        response: { 200: palmPaymentResponseSchema },
      },
    },
    async (request) => {
      const taker = await requirePaymentTaker(request, devices);
      const transaction = await confirmPalmPayment(palmConfirmationDeps(app, request.log), {
        ...taker,
        paymentId: request.body.payment_id,
        code: request.body.otp,
        linkOrigin: publicOrigin(request),
      });
      return palmPaidAnswer(transaction, messages.authenticationSuccessful);
    },
  );

  app.post(
    '/Palm/authenticate/cancel',
    {
      schema: {
        tags,
        summary: 'Cancel a palm payment waiting for the payer’s code: nothing is paid',
        body: palmCancelRequestSchema,
        response: { 200: successResponseSchema },
      },
    },
    async (request) => {
      const taker = await requirePaymentTaker(request, devices);
      await cancelPalmPayment(palmConfirmationDeps(app, request.log), {
        ...taker,
        paymentId: request.body.payment_id,
      });
      return { success: true as const, message: messages.palmPaymentCancelled };
    },
  );

  app.get(
    '/api/consent',
    {
      schema: {
        tags,
        summary: 'Your palm consent: status, registered hands and the consent events (each with a receipt)',
        response: { 200: consentResponseSchema },
      },
    },
    async (request) => {
      const auth = await requireUser(request);
      return viewPalmConsent(consentDeps, auth.user.id);
    },
  );

  app.post(
    '/api/consent/withdraw',
    {
      schema: {
        tags,
        summary: 'Withdraw palm consent: palm payments stop at once (the templates stay until erased)',
        response: { 200: consentChangeResponseSchema },
      },
    },
    async (request) => {
      const auth = await requireUser(request);
      await withdrawPalmConsent(consentDeps, auth.user.id);
      return { success: true as const, message: messages.palmConsentWithdrawn };
    },
  );

  app.post(
    '/api/consent/restore',
    {
      schema: {
        tags,
        summary: 'Give palm consent again for the registered hands',
        response: { 200: consentChangeResponseSchema },
      },
    },
    async (request) => {
      const auth = await requireUser(request);
      await restorePalmConsent(consentDeps, auth.user.id);
      return { success: true as const, message: messages.palmConsentRestored };
    },
  );

  app.post(
    '/api/consent/erase',
    {
      schema: {
        tags,
        summary: 'Erase palm data: templates deleted, consent withdrawn, log records crypto-shredded',
        response: { 200: consentChangeResponseSchema },
      },
    },
    async (request) => {
      const auth = await requireUser(request);
      await erasePalmData(consentDeps, auth.user.id);
      return { success: true as const, message: messages.palmDataErased };
    },
  );
};
