import { healthResponseSchema } from '@hasta/contracts/health';
import { sql } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      config: { rateLimit: false },
      schema: {
        tags: ['system'],
        summary: 'Liveness and database check',
        response: { 200: healthResponseSchema },
      },
    },
    async () => {
      await sql`SELECT 1`.execute(app.database.db);
      return { status: 'ok' as const, database: app.database.kind };
    },
  );
};
