import { healthResponseSchema } from '@hasta/contracts/health';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DATABASE_RETRY_AFTER_S } from '../db/errors';
import { checkHealth, type HealthDeps } from '../health/check-health';

export const healthRoutes: FastifyPluginAsyncZod<{ deps: HealthDeps }> = async (app, { deps }) => {
  app.get(
    '/health',
    {
      config: { rateLimit: false },
      schema: {
        tags: ['system'],
        summary: 'Liveness and database check (which host is the primary, with several)',
        response: { 200: healthResponseSchema, 503: healthResponseSchema },
      },
    },
    async (_request, reply) => {
      const health = await checkHealth(deps);
      if (health.status === 'ok') return health;
      return reply.status(503).header('retry-after', String(DATABASE_RETRY_AFTER_S)).send(health);
    },
  );
};
