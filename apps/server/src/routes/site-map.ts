import type { FastifyPluginAsync } from 'fastify';
import { robotsTxt, siteMapXml } from '../site/site-map';
import { publicOrigin } from './support/public-origin';

/** Crawlers may cache both for an hour; they change only with a release. */
const CRAWLER_CACHE = 'public, max-age=3600';

/**
 * For search engines: /sitemap.xml lists the public pages and /robots.txt keeps crawlers out of the app's
 * pages, the API and the dev tools. Both use the configured public origin (PUBLIC_URL), so the addresses are
 * the ones people reach, whatever host the request came through.
 */
export const siteMapRoutes: FastifyPluginAsync = async (app) => {
  app.get('/sitemap.xml', { schema: { hide: true } }, async (request, reply) =>
    reply
      .type('application/xml; charset=utf-8')
      .header('cache-control', CRAWLER_CACHE)
      .send(siteMapXml(publicOrigin(request))),
  );

  app.get('/robots.txt', { schema: { hide: true } }, async (request, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', CRAWLER_CACHE)
      .send(robotsTxt(publicOrigin(request))),
  );
};
