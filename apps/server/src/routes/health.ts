import { healthResponseSchema } from '@hasta/contracts/health';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { checkHealth, type HealthDeps } from '../health/check-health';

export const healthRoutes: FastifyPluginAsyncZod<{ deps: HealthDeps }> = async (app, { deps }) => {
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
    async () => checkHealth(deps),
  );
};
