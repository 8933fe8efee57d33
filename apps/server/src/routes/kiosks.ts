import { kioskListResponseSchema } from '@hasta/contracts/kiosks';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findKiosks, type KioskDeps } from '../kiosks/find-kiosks';

export const kioskRoutes: FastifyPluginAsyncZod<{ deps: KioskDeps }> = async (app, { deps }) => {
  app.get(
    '/kiosks',
    {
      schema: {
        tags: ['kiosks'],
        summary: 'Palm registration kiosks, optionally found by pincode (or its start), city or area',
        querystring: z.object({ q: z.string().trim().max(100).optional() }),
        response: { 200: kioskListResponseSchema },
      },
    },
    async (request) => ({ kiosks: await findKiosks(deps, request.query.q) }),
  );
};
