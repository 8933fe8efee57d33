import { messages } from '@hasta/contracts/messages';
import {
  adminDisputeListResponseSchema,
  disputeListResponseSchema,
  notMePreviewResponseSchema,
  notMeResponseSchema,
  notMeTokenRequestSchema,
  openDisputeRequestSchema,
  resolveDisputeRequestSchema,
  resolveDisputeResponseSchema,
  type AdminDispute,
  type Dispute,
} from '@hasta/contracts/palm-trust';
import { paiseToRupeesText } from '@hasta/ledger/money';
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { DisputeView } from '../disputes/dispute-repository';
import {
  listOwnDisputes,
  previewNotMe,
  reportNotMe,
  reportPalmPayment,
  type OpenDisputeDeps,
} from '../disputes/open-dispute';
import { listAllDisputes, resolveDispute, type ResolveDisputeDeps } from '../disputes/resolve-dispute';
import { requireAdmin, requireAdminWithRecentPasskey, requireUser } from '../plugins/auth';
import { publicPostLimit } from './support/public-post-limit';

/** What the dispute routes pass to their use cases (each request adds its logger). */
export type DisputeRouteDeps = Omit<OpenDisputeDeps, 'log'>;

function disputeAnswer(view: DisputeView): Dispute {
  const amount = paiseToRupeesText(view.amountPaise);
  return {
    id: view.id,
    status: view.status,
    opened_via: view.openedVia,
    transaction: {
      id: view.transferId,
      amount,
      amount_paise: view.amountPaise.toString(),
      created_at: view.paidAt.toISOString(),
    },
    payee: view.payee,
    device: view.device,
    similarity: view.similarity === null ? null : Math.round(view.similarity * 10) / 10,
    reason: view.reason,
    refunded_from: view.refundedFrom,
    created_at: view.createdAt.toISOString(),
    resolved_at: view.resolvedAt?.toISOString() ?? null,
  };
}

function adminDisputeAnswer(view: DisputeView): AdminDispute {
  return { ...disputeAnswer(view), payer_email: view.payerEmail, payer_phone: view.payerPhone };
}

/**
 * "Not me" and disputes (issue 21): the payer reports a palm payment from the notice's one-time link (no
 * login) or from their History; admins refund or reject.
 */
export const disputeRoutes: FastifyPluginAsyncZod<{ deps: DisputeRouteDeps }> = async (app, { deps }) => {
  const openDeps = (log: FastifyBaseLogger): OpenDisputeDeps => ({ ...deps, log });
  const resolveDeps = (log: FastifyBaseLogger): ResolveDisputeDeps => ({
    ledger: deps.ledger,
    disputes: deps.disputes,
    notify: deps.notify,
    log,
    rewards: app.rewards,
  });
  // The link's token is the only authority: as slow to guess as the public forms are to spam.
  const perClient = publicPostLimit(app.env);
  const tags = ['palm'];

  app.post(
    '/palm/not-me/preview',
    {
      config: perClient,
      schema: {
        tags,
        summary: 'What a "Not me?" link reports (no login: the token is the authority)',
        body: notMeTokenRequestSchema,
        response: { 200: notMePreviewResponseSchema },
      },
    },
    async (request) => {
      const preview = await previewNotMe(openDeps(request.log), request.body.token);
      return {
        amount: paiseToRupeesText(preview.amountPaise),
        payee: preview.payee,
        created_at: preview.paidAt.toISOString(),
      };
    },
  );

  app.post(
    '/palm/not-me',
    {
      config: perClient,
      schema: {
        tags,
        summary: '"Not me": pause palm pay for the payer at once and report the payment (token spent)',
        body: notMeTokenRequestSchema,
        response: { 200: notMeResponseSchema },
      },
    },
    async (request) => {
      const dispute = await reportNotMe(openDeps(request.log), request.body.token);
      return { success: true as const, message: messages.notMeReported, dispute: disputeAnswer(dispute) };
    },
  );

  app.post(
    '/palm/disputes',
    {
      schema: {
        tags,
        summary: '"Not me" from the History: report a palm payment you made; palm pay pauses at once',
        body: openDisputeRequestSchema,
        response: { 200: notMeResponseSchema },
      },
    },
    async (request) => {
      const auth = await requireUser(request);
      const dispute = await reportPalmPayment(openDeps(request.log), {
        payerUserId: auth.user.id,
        transactionId: request.body.transaction_id,
      });
      return { success: true as const, message: messages.notMeReported, dispute: disputeAnswer(dispute) };
    },
  );

  app.get(
    '/palm/disputes',
    {
      schema: {
        tags,
        summary: 'Your reported palm payments, newest first',
        response: { 200: disputeListResponseSchema },
      },
    },
    async (request) => {
      const auth = await requireUser(request);
      const disputes = await listOwnDisputes(deps, auth.user.id);
      return { disputes: disputes.map(disputeAnswer) };
    },
  );

  app.get(
    '/disputes',
    {
      schema: {
        tags: ['admin'],
        summary: 'Admin: disputed palm payments, open first',
        response: { 200: adminDisputeListResponseSchema },
      },
    },
    async (request) => {
      await requireAdmin(request);
      const disputes = await listAllDisputes(deps);
      return { disputes: disputes.map(adminDisputeAnswer) };
    },
  );

  app.post(
    '/disputes/:id',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Admin: refund a disputed palm payment (from the payee, else the losses account) or reject it',
        params: z.object({ id: z.uuid(messages.disputeNotFound) }),
        body: resolveDisputeRequestSchema,
        response: { 200: resolveDisputeResponseSchema },
      },
    },
    async (request) => {
      const auth = await requireAdminWithRecentPasskey(request);
      const dispute = await resolveDispute(resolveDeps(request.log), {
        adminId: auth.user.id,
        disputeId: request.params.id,
        resolution: request.body,
      });
      return {
        success: true as const,
        message: dispute.status === 'refunded' ? messages.disputeRefunded : messages.disputeRejected,
        dispute: adminDisputeAnswer(dispute),
      };
    },
  );
};
