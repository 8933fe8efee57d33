import {
  sessionParamsSchema,
  sessionsListResponseSchema,
  sessionsRevokedResponseSchema,
} from '@hasta/contracts/auth';
import { messages } from '@hasta/contracts/messages';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listSessions } from '../auth/list-sessions';
import { revokeOtherSessions, revokeSessionOf, type SessionDeps } from '../auth/revoke-sessions';
import { forgetCachedSessions, requireUser } from '../plugins/auth';

/** The caller's own sessions (issue 23 item 2): the list in Settings, "sign out everywhere else", one by one. */
export const sessionRoutes: FastifyPluginAsyncZod<{ deps: SessionDeps }> = async (app, { deps }) => {
  const tags = { tags: ['auth'] };

  app.get(
    '/sessions',
    {
      schema: {
        ...tags,
        summary: 'The signed-in user’s own live sessions',
        response: { 200: sessionsListResponseSchema },
      },
    },
    async (request) => {
      const auth = await requireUser(request);
      const sessions = await listSessions(deps, {
        sessionId: auth.sessionId,
        userId: auth.user.id,
        role: auth.user.role,
      });
      return { sessions };
    },
  );

  app.post(
    '/sessions/revoke-others',
    {
      schema: {
        ...tags,
        summary: 'Sign out everywhere else: end every session of the user but this one',
        response: { 200: sessionsRevokedResponseSchema },
      },
    },
    async (request) => {
      const auth = await requireUser(request);
      const revoked = await revokeOtherSessions(deps, { sessionId: auth.sessionId, userId: auth.user.id });
      forgetCachedSessions(request);
      return { success: true as const, message: messages.otherSessionsSignedOut, revoked };
    },
  );

  app.post(
    '/sessions/:id/revoke',
    {
      schema: {
        ...tags,
        summary: 'End one of the signed-in user’s sessions',
        params: sessionParamsSchema,
        response: { 200: sessionsRevokedResponseSchema },
      },
    },
    async (request) => {
      const auth = await requireUser(request);
      const revoked = await revokeSessionOf(deps, { userId: auth.user.id }, request.params.id);
      forgetCachedSessions(request);
      return { success: true as const, message: messages.sessionSignedOut, revoked };
    },
  );
};
