import { kioskListResponseSchema } from '@hasta/contracts/kiosks';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

const MAX_KIOSKS = 500;

export const kioskRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/kiosks',
    {
      schema: {
        tags: ['kiosks'],
        summary: 'Palm registration kiosks',
        response: { 200: kioskListResponseSchema },
      },
    },
    async () => {
      const rows = await app.database.db
        .selectFrom('kiosks')
        .select(['id', 'name', 'lat', 'lng', 'address', 'city', 'pincode', 'status', 'type', 'hours'])
        .orderBy('city')
        .orderBy('name')
        .limit(MAX_KIOSKS)
        .execute();
      return { kiosks: rows };
    },
  );
};
