import { APP_PAGE_PATHS, PUBLIC_PAGE_PATHS } from '@hasta/contracts/site-pages';
import type { FastifyPluginAsync } from 'fastify';
import { publicOrigin } from './support/public-origin';

/** Crawlers may cache both for an hour; they change only with a release. */
const CRAWLER_CACHE = 'public, max-age=3600';

function escapeXml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}

/**
 * For search engines: /sitemap.xml lists the public pages and /robots.txt keeps crawlers out of the app's
 * pages, the API and the dev tools. Both use the configured public origin (PUBLIC_URL), so the addresses are
 * the ones people reach, whatever host the request came through.
 */
export const siteMapRoutes: FastifyPluginAsync = async (app) => {
  app.get('/sitemap.xml', { schema: { hide: true } }, async (request, reply) => {
    const origin = publicOrigin(request);
    const urls = PUBLIC_PAGE_PATHS.map((path) => `  <url><loc>${escapeXml(`${origin}${path}`)}</loc></url>`);
    const xml = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      ...urls,
      '</urlset>',
      '',
    ].join('\n');
    return reply.type('application/xml; charset=utf-8').header('cache-control', CRAWLER_CACHE).send(xml);
  });

  app.get('/robots.txt', { schema: { hide: true } }, async (request, reply) => {
    const lines = [
      'User-agent: *',
      ...[...APP_PAGE_PATHS, '/api/', '/dev/'].map((path) => `Disallow: ${path}`),
      '',
      `Sitemap: ${publicOrigin(request)}/sitemap.xml`,
      '',
    ];
    return reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', CRAWLER_CACHE)
      .send(lines.join('\n'));
  });
};
