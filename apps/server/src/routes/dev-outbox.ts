import { outboxResponseSchema, type OutboxMessage } from '@hasta/contracts/outbox';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { OUTBOX_PAGE_SIZE, readOutbox, type OutboxDeps } from '../messaging/read-outbox';
import { requireAdmin } from '../plugins/auth';
import { isLoopbackRequest } from './support/loopback-request';

const outboxQuerySchema = z.object({
  to: z.string().trim().toLowerCase().max(320).optional(),
  limit: z.coerce.number().int().min(1).max(OUTBOX_PAGE_SIZE).default(OUTBOX_PAGE_SIZE),
});

/**
 * The dev outbox: every SMS and email sent outside production, newest first. Registered only when NODE_ENV is
 * not production, so there it does not exist (404). Elsewhere it answers the developer on this machine
 * (a loopback request no proxy forwarded) and admins; anyone else gets 401/403, so a server started without
 * NODE_ENV does not hand out everyone's codes (issue 23).
 */
export const devOutboxRoutes: FastifyPluginAsyncZod<{ deps: OutboxDeps }> = async (app, { deps }) => {
  app.addHook('onRequest', async (request) => {
    if (!isLoopbackRequest(request)) await requireAdmin(request);
  });

  app.get(
    '/api/dev/outbox',
    {
      schema: {
        tags: ['development'],
        summary: 'Messages sent outside production, newest first',
        querystring: outboxQuerySchema,
        response: { 200: outboxResponseSchema },
      },
    },
    async (request) => ({ messages: await readOutbox(deps, request.query) }),
  );

  app.get(
    '/dev/outbox',
    { schema: { hide: true, querystring: outboxQuerySchema } },
    async (request, reply) => {
      const list = await readOutbox(deps, request.query);
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(renderOutbox(list));
    },
  );
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function renderOutbox(list: OutboxMessage[]): string {
  const rows = list
    .map(
      (message) => `<article>
  <header><span class="channel">${message.channel === 'sms' ? 'SMS' : 'Email'}</span>
  <strong>${escapeHtml(message.to)}</strong>
  <time datetime="${message.created_at}">${escapeHtml(message.created_at)}</time></header>
  ${message.subject ? `<h2>${escapeHtml(message.subject)}</h2>` : ''}
  <pre>${escapeHtml(message.body)}</pre>
</article>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="5">
<title>Dev outbox · Hasta</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;background:#f8fafc;color:#0f172a}
main{max-width:56rem;margin:0 auto;padding:2rem 1rem}
article{background:#fff;border:1px solid #e2e8f0;border-radius:.75rem;padding:1rem;margin:0 0 1rem}
article header{display:flex;gap:.75rem;align-items:baseline;flex-wrap:wrap}
.channel{background:#0f766e;color:#fff;border-radius:999px;padding:.1rem .6rem;font-size:.8rem}
time{color:#475569;font-size:.85rem}
h2{font-size:1rem;margin:.75rem 0 0}
pre{white-space:pre-wrap;word-break:break-word;font-size:.9rem;margin:.5rem 0 0}
</style>
</head>
<body>
<main>
<h1>Dev outbox</h1>
<p>Every SMS and email the server sent outside production, newest first. This page refreshes every 5 seconds.</p>
${rows || '<p>No messages yet.</p>'}
</main>
</body>
</html>`;
}
