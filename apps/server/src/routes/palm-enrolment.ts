import { messages } from '@hasta/contracts/messages';
import {
  enrolmentApproveRequestSchema,
  enrolmentRequestListResponseSchema,
  enrolmentRequestSchema,
  palmPayStatusResponseSchema,
  stepUpPurposeSchema,
  stepUpStatusResponseSchema,
  stepUpSendRequestSchema,
  stepUpSendResponseSchema,
  stepUpVerifyRequestSchema,
  stepUpVerifyResponseSchema,
} from '@hasta/contracts/palm-trust';
import { palmRegisterResponseSchema } from '@hasta/contracts/palm';
import { successResponseSchema } from '@hasta/contracts/auth';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  approveEnrolmentRequest,
  declineEnrolmentRequest,
  listWaitingEnrolmentRequests,
  viewEnrolmentRequest,
} from '../palm/palm-enrolment-request';
import { palmPayStatus, unfreezePalmPay } from '../palm/palm-pay-status';
import { clientKey } from './support/client-key';
import { sendStepUpCode, stepUpStatus, verifyStepUpCode, type PalmStepUpDeps } from '../palm/palm-step-up';
import type { PalmRegistrationDeps } from '../palm/register-palm';
import { requireUser } from '../plugins/auth';
import { PALM_GUARDED_TAG } from './support/palm-payment';

const requestParamsSchema = z.object({ id: z.uuid(messages.palmEnrolmentRequestNotFound) });

/**
 * The owner's side of palm trust (issue 21): the step-up that enrolling a palm or turning palm pay back on
 * needs, the admin-assisted registrations waiting for the owner's approval, and palm pay's pause.
 */
export const palmEnrolmentRoutes: FastifyPluginAsyncZod<{ deps: Pick<PalmRegistrationDeps, 'db'> }> = async (
  app,
  { deps: { db } },
) => {
  const tags = ['palm'];
  const stepUpDeps: PalmStepUpDeps = { db, secret: app.env.COOKIE_SECRET, messenger: app.messenger };
  const requestDeps: Pick<PalmRegistrationDeps, 'db' | 'palm' | 'messenger' | 'secret'> = {
    db,
    palm: app.palm,
    messenger: app.messenger,
    secret: app.env.COOKIE_SECRET,
  };
  const statusDeps = app.ownerNotices;

  app.post(
    '/Palm/step-up/send',
    {
      schema: {
        tags,
        summary: 'Send a code to your own phone (else email) to confirm it is you before a palm action',
        body: stepUpSendRequestSchema,
        response: { 200: stepUpSendResponseSchema },
      },
    },
    async (request) => {
      const auth = await requireUser(request);
      const sent = await sendStepUpCode(
        stepUpDeps,
        { userId: auth.user.id, sessionId: auth.sessionId, purpose: request.body.purpose },
        app.sessionClock(),
      );
      return {
        success: true as const,
        message: sent.channel === 'sms' ? messages.stepUpCodeSentPhone : messages.stepUpCodeSentEmail,
        channel: sent.channel,
        sent_to: sent.sentTo,
      };
    },
  );

  app.post(
    '/Palm/step-up/verify',
    {
      schema: {
        tags,
        summary: 'Check the code: this session may then enrol a palm (or unfreeze palm pay) for 5 minutes',
        body: stepUpVerifyRequestSchema,
        response: { 200: stepUpVerifyResponseSchema },
      },
    },
    async (request) => {
      const auth = await requireUser(request);
      const { validUntil } = await verifyStepUpCode(
        stepUpDeps,
        {
          userId: auth.user.id,
          sessionId: auth.sessionId,
          purpose: request.body.purpose,
          code: request.body.otp,
          client: clientKey(request),
        },
        app.sessionClock(),
      );
      return {
        success: true as const,
        message: messages.stepUpVerified,
        valid_until: validUntil.toISOString(),
      };
    },
  );

  app.get(
    '/Palm/step-up/:purpose',
    {
      schema: {
        tags,
        summary: 'Whether this session has a live step-up for the purpose, and until when',
        params: z.object({ purpose: stepUpPurposeSchema }),
        response: { 200: stepUpStatusResponseSchema },
      },
    },
    async (request) => {
      const auth = await requireUser(request);
      const { validUntil } = await stepUpStatus(
        db,
        { userId: auth.user.id, sessionId: auth.sessionId, purpose: request.params.purpose },
        app.sessionClock(),
      );
      return { verified: validUntil !== null, valid_until: validUntil?.toISOString() ?? null };
    },
  );

  app.get(
    '/Palm/enrolment-requests',
    {
      schema: {
        tags,
        summary: 'Palm registrations an admin started on your account, waiting for your approval',
        response: { 200: enrolmentRequestListResponseSchema },
      },
    },
    async (request) => {
      const auth = await requireUser(request);
      return { requests: await listWaitingEnrolmentRequests(requestDeps, auth.user.id) };
    },
  );

  app.get(
    '/Palm/enrolment-requests/:id',
    {
      schema: {
        tags,
        summary: 'One palm registration request (its owner, or the admin who started it)',
        params: requestParamsSchema,
        response: { 200: enrolmentRequestSchema },
      },
    },
    async (request) => {
      const auth = await requireUser(request);
      return viewEnrolmentRequest(requestDeps, { callerId: auth.user.id, id: request.params.id });
    },
  );

  app.post(
    '/Palm/enrolment-requests/:id/approve',
    {
      schema: {
        tags: [...tags, PALM_GUARDED_TAG],
        summary: 'Approve a palm registration on your account with the code sent to you (owner only)',
        params: requestParamsSchema,
        body: enrolmentApproveRequestSchema,
        response: { 200: palmRegisterResponseSchema },
      },
    },
    async (request) => {
      const auth = await requireUser(request);
      const { request: approved, palmHash } = await approveEnrolmentRequest(
        { ...requestDeps, rewards: app.rewards },
        {
          callerId: auth.user.id,
          id: request.params.id,
          code: request.body.otp,
        },
      );
      const hand = approved.which_hand;
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
    '/Palm/enrolment-requests/:id/decline',
    {
      schema: {
        tags,
        summary: 'Decline a palm registration on your account: nothing is registered (owner only)',
        params: requestParamsSchema,
        response: { 200: successResponseSchema },
      },
    },
    async (request) => {
      const auth = await requireUser(request);
      await declineEnrolmentRequest(requestDeps, { callerId: auth.user.id, id: request.params.id });
      return { success: true as const, message: messages.palmEnrolmentDeclined };
    },
  );

  app.get(
    '/api/palm/status',
    {
      schema: {
        tags,
        summary: 'Whether palm pay is paused for your account ("Not me"), and since when',
        response: { 200: palmPayStatusResponseSchema },
      },
    },
    async (request) => {
      const auth = await requireUser(request);
      const status = await palmPayStatus(statusDeps, auth.user.id);
      return { frozen: status.frozen, frozen_at: status.frozenAt?.toISOString() ?? null };
    },
  );

  app.post(
    '/api/palm/unfreeze',
    {
      schema: {
        tags,
        summary: 'Turn palm pay back on (needs a palm_unfreeze step-up of this session)',
        response: { 200: successResponseSchema },
      },
    },
    async (request) => {
      const auth = await requireUser(request);
      await unfreezePalmPay(statusDeps, { userId: auth.user.id, sessionId: auth.sessionId });
      return { success: true as const, message: messages.palmPayUnfrozen };
    },
  );
};
