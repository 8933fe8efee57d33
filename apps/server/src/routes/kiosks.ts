import { kioskListResponseSchema } from '@hasta/contracts/kiosks';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

const MAX_KIOSKS = 500;

/** `%`, `_` and `\` typed by a person match themselves, not any text. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

export const kioskRoutes: FastifyPluginAsyncZod = async (app) => {
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
    async (request) => {
      const q = request.query.q;
      let query = app.database.db
        .selectFrom('kiosks')
        .select(['id', 'name', 'lat', 'lng', 'address', 'city', 'pincode', 'status', 'type', 'hours']);
      if (q) {
        query = /^\d+$/.test(q)
          ? query.where('pincode', 'like', `${q}%`)
          : query.where((eb) =>
              eb.or([
                eb('city', 'ilike', likePattern(q)),
                eb('name', 'ilike', likePattern(q)),
                eb('address', 'ilike', likePattern(q)),
              ]),
            );
      }
      const rows = await query.orderBy('city').orderBy('name').limit(MAX_KIOSKS).execute();
      return { kiosks: rows };
    },
  );
};
