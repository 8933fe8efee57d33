import { messages } from '@hasta/contracts/messages';
import {
  approveVendorRequestSchema,
  approveVendorResponseSchema,
  merchantListResponseSchema,
  payoutDecisionSchema,
  withdrawalListSchema,
} from '@hasta/contracts/merchant';
import { successResponseSchema } from '@hasta/contracts/auth';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { MerchantDeps } from '../merchant/merchant-deps';
import { approveVendor, listMerchants } from '../merchant/onboarding';
import { allWithdrawals, decidePayout } from '../merchant/payouts';
import { requireAdmin, requireAdminWithRecentPasskey } from '../plugins/auth';
import { publicOrigin } from './support/public-origin';

/** The admin's side of the stores: approving vendors into merchants, and deciding their withdrawals. */
export const adminMerchantRoutes: FastifyPluginAsyncZod<{ deps: MerchantDeps }> = async (app, options) => {
  const deps = options.deps;
  const tags = ['admin'];

  app.post(
    '/merchants',
    {
      schema: {
        tags,
        summary: 'Admin: approve a vendor registration into a merchant account',
        body: approveVendorRequestSchema,
        response: { 200: approveVendorResponseSchema },
      },
    },
    async (request) => {
      await requireAdmin(request);
      const merchant = await approveVendor(deps, {
        vendorRegistrationId: request.body.vendorRegistrationId,
        publicOrigin: publicOrigin(request),
      });
      return { success: true as const, message: messages.merchantApproved, merchant };
    },
  );

  app.get(
    '/merchants',
    { schema: { tags, summary: 'Admin: merchants', response: { 200: merchantListResponseSchema } } },
    async (request) => {
      await requireAdmin(request);
      return { merchants: await listMerchants(deps) };
    },
  );

  app.get(
    '/payouts',
    { schema: { tags, summary: 'Admin: merchant withdrawals', response: { 200: withdrawalListSchema } } },
    async (request) => {
      await requireAdmin(request);
      return { withdrawals: await allWithdrawals(deps) };
    },
  );

  app.post(
    '/payouts/:id',
    {
      schema: {
        tags,
        summary:
          'Admin: settle (money leaves to the bank) or reject (money returns to the store) a withdrawal',
        params: z.object({ id: z.uuid(messages.payoutNotFound) }),
        body: payoutDecisionSchema,
        response: { 200: successResponseSchema },
      },
    },
    async (request) => {
      const admin = await requireAdminWithRecentPasskey(request);
      const outcome = await decidePayout(deps, {
        payoutId: request.params.id,
        action: request.body.action,
        adminUserId: admin.user.id,
      });
      return {
        success: true as const,
        message: outcome === 'settled' ? messages.payoutSettled : messages.payoutRejected,
      };
    },
  );
};
