import { normalizeEmail, normalizePhone } from '@hasta/contracts/identity';
import { messages } from '@hasta/contracts/messages';
import {
  consentChangeResponseSchema,
  consentResponseSchema,
  type ConsentStatus,
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
import { successResponseSchema } from '@hasta/contracts/auth';
import { idempotencyHeaderSchema } from '@hasta/contracts/wallet';
import { paiseToRupeesText } from '@hasta/ledger/money';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { isUniqueViolation } from '../db/errors';
import { paiseOf } from '../ledger/ledger-errors';
import { AppError } from '../lib/app-error';
import {
  cancelPalmPayment,
  confirmPalmPayment,
  markConfirmation,
  PALM_BODY_LIMIT_BYTES,
  palmPaidAnswer,
  palmPaymentAnswer,
  takePalmPayment,
} from '../palm/palm-payment';
import { registeredHands } from '../palm/palm-service';
import { actingFor, requireUser } from '../plugins/auth';

/**
 * Palm registration and palm payments (spec §7 `/Palm/*`), and the person's consent (Consent tab):
 * withdrawing stops palm payments at once; erasing deletes the templates and shreds the log records.
 */
export const palmRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.database.db;
  const palm = app.palm;
  const tags = ['palm'];

  async function existingUser(userId: string): Promise<void> {
    const user = await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
    if (!user) throw AppError.of('NOT_FOUND', 'userNotFound');
  }

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
        tags,
        summary: 'Register one hand (consent given with it); admins may register for another user',
        body: palmRegisterRequestSchema,
        response: { 200: palmRegisterResponseSchema },
      },
    },
    async (request) => {
      const auth = await requireUser(request);
      const userId = actingFor(auth, request.body.user_id);
      await existingUser(userId);
      const hand = request.body.which_hand;
      let palmHash: string;
      try {
        ({ palmHash } = await palm.enrol(userId, hand, request.body.scan));
      } catch (error) {
        // Two registrations of the same hand at once: the unique (user, hand) lets one through.
        if (isUniqueViolation(error)) throw AppError.of('CONFLICT', 'handAlreadyRegistered');
        throw error;
      }
      return {
        success: true as const,
        state: true as const,
        message: `${hand === 'left' ? 'Left' : 'Right'} hand has been registered successfully.`,
        which_hand: hand,
        palm_hash: palmHash,
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
      await existingUser(userId);
      const hands = (await registeredHands(db, [userId])).get(userId);
      return { left_hand_registered: hands?.left ?? false, right_hand_registered: hands?.right ?? false };
    },
  );

  app.post(
    '/Palm/authenticate',
    {
      bodyLimit: PALM_BODY_LIMIT_BYTES,
      schema: {
        tags,
        summary: 'Receive money by palm: the palm names the payer, the money comes to the signed-in user',
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
      const store =
        auth.user.role === 'merchant'
          ? await db
              .selectFrom('merchants')
              .select('id')
              .where('owner_user_id', '=', auth.user.id)
              .executeTakeFirst()
          : undefined;
      const outcome = await takePalmPayment(app, request, {
        scan,
        amountPaise,
        receiverUserId: auth.user.id,
        creditAccountId: store
          ? await app.ledger.ensureMerchantAccount(store.id)
          : await app.ledger.ensureUserAccount(auth.user.id),
      });
      return palmPaymentAnswer(outcome, reply, messages.authenticationSuccessful);
    },
  );

  // A palm payment waiting for the payer's code: whoever takes the payment (a person or a store's owner)
  // confirms it with the code, or cancels it.
  app.pendingExpiry.on('payment', { inTransaction: markConfirmation('expired') });

  app.post(
    '/Palm/authenticate/confirm',
    {
      schema: {
        tags,
        summary: 'Confirm a palm payment above the palm limit with the code sent to the payer',
        body: palmConfirmRequestSchema,
        response: { 200: palmPaymentResponseSchema },
      },
    },
    async (request) => {
      const auth = await requireUser(request);
      const transaction = await confirmPalmPayment(
        app,
        auth.user.id,
        request.body.payment_id,
        request.body.otp,
      );
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
      const auth = await requireUser(request);
      await cancelPalmPayment(app, auth.user.id, request.body.payment_id);
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
      const [templates, consents, events] = await Promise.all([
        db
          .selectFrom('palm_templates')
          .select(['hand', 'palm_hash', 'created_at'])
          .where('user_id', '=', auth.user.id)
          .orderBy('hand')
          .execute(),
        db
          .selectFrom('palm_consents')
          .select('id')
          .where('user_id', '=', auth.user.id)
          .where('withdrawn_at', 'is', null)
          .execute(),
        db
          .selectFrom('palm_events')
          .select(['id', 'type', 'hand', 'created_at'])
          .where('user_id', '=', auth.user.id)
          .where('type', '<>', 'palm.scan')
          .orderBy('seq', 'desc')
          .limit(100)
          .execute(),
      ]);
      const status: ConsentStatus =
        templates.length === 0 ? 'none' : consents.length > 0 ? 'active' : 'withdrawn';
      return {
        status,
        hands: templates.map((row) => ({
          hand: row.hand,
          palm_hash: row.palm_hash,
          registered_at: new Date(row.created_at).toISOString(),
        })),
        events: events.map((row) => ({
          id: row.id,
          type: row.type as Exclude<typeof row.type, 'palm.scan'>,
          hand: row.hand,
          created_at: new Date(row.created_at).toISOString(),
        })),
      };
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
      if (!(await palm.withdraw(auth.user.id))) throw AppError.of('CONFLICT', 'noPalmToWithdraw');
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
      if (!(await palm.restore(auth.user.id))) throw AppError.of('CONFLICT', 'noPalmToRestore');
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
      if (!(await palm.erase(auth.user.id))) throw AppError.of('CONFLICT', 'noPalmToErase');
      // Waiting events are sealed first (under the key that is about to go), then the key is destroyed.
      await app.transparencyLog.flush();
      await app.transparencyLog.destroyDataKey(auth.user.id);
      return { success: true as const, message: messages.palmDataErased };
    },
  );
};
