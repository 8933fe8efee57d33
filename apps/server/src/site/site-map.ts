import { APP_PAGE_PATHS, PUBLIC_PAGE_PATHS } from '@hasta/contracts/site-pages';

function escapeXml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}

/** /sitemap.xml: the public pages, at the origin people reach. */
export function siteMapXml(origin: string): string {
  const urls = PUBLIC_PAGE_PATHS.map((path) => `  <url><loc>${escapeXml(`${origin}${path}`)}</loc></url>`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
}

/** /robots.txt: crawlers stay out of the app's pages, the API and the dev tools, and find the sitemap. */
export function robotsTxt(origin: string): string {
  return [
    'User-agent: *',
    ...[...APP_PAGE_PATHS, '/api/', '/dev/'].map((path) => `Disallow: ${path}`),
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n');
}
