import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { Env } from '../env';
import { AppError } from '../lib/app-error';

export const DEFAULT_WEB_DIST_DIR = fileURLToPath(new URL('../../../web/dist', import.meta.url));

/**
 * Serves the built web app on the API's port, brotli or gzip as the browser accepts (compressed at build
 * time): hashed assets cached for a year, index.html never cached, and
 * every other GET for a page answered with index.html so client routes work on reload. Unknown API paths and
 * (in production) /dev/* answer a JSON 404.
 */
export async function registerWebApp(app: FastifyInstance, env: Env): Promise<void> {
  const root = resolve(env.WEB_DIST_DIR ?? DEFAULT_WEB_DIST_DIR);
  const hasBuild = existsSync(resolve(root, 'index.html'));
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each text file (apps/web/build/precompress.ts).
      preCompressed: true,
      setHeaders: (reply, path) => {
        reply.header(
          'cache-control',
          path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  } else {
    app.log.warn(`No web build at ${root}: run "npm run build" to serve the app.`);
  }

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !path.startsWith('/api/') &&
      path !== '/api' &&
      !path.startsWith('/dev/') &&
      !/\.[a-z0-9]+$/i.test(path);
    if (hasBuild && isPage) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    throw AppError.of('NOT_FOUND', 'notFound');
  });
}
