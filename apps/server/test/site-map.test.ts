import { APP_PAGE_PATHS, PUBLIC_PAGE_PATHS } from '@hasta/contracts/site-pages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './support/test-app';

const PUBLIC_URL = 'https://hasta.example';

describe('sitemap.xml and robots.txt', () => {
  let configured: TestApp;
  let unconfigured: TestApp;
  beforeAll(async () => {
    [configured, unconfigured] = await Promise.all([buildTestApp({ env: { PUBLIC_URL } }), buildTestApp()]);
  });
  afterAll(async () => {
    await Promise.all([configured.close(), unconfigured.close()]);
  });

  it('lists every public page, and only those, at the public origin', async () => {
    const response = await configured.app.inject({ method: 'GET', url: '/sitemap.xml' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(response.body).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns=/);
    const locations = [...response.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    expect(locations).toEqual(PUBLIC_PAGE_PATHS.map((path) => `${PUBLIC_URL}${path}`));
    expect(locations).toContain(`${PUBLIC_URL}/`);
    expect(locations).toContain(`${PUBLIC_URL}/applicants-register`);
    for (const path of APP_PAGE_PATHS) expect(response.body).not.toContain(`${PUBLIC_URL}${path}<`);
  });

  it('keeps crawlers out of the app, the API and the dev tools, and points at the sitemap', async () => {
    const response = await configured.app.inject({ method: 'GET', url: '/robots.txt' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    const lines = response.body.split('\n');
    expect(lines[0]).toBe('User-agent: *');
    const disallowed = lines.filter((line) => line.startsWith('Disallow: ')).map((line) => line.slice(10));
    expect(disallowed).toEqual([...APP_PAGE_PATHS, '/api/', '/dev/']);
    for (const path of PUBLIC_PAGE_PATHS) {
      expect(
        disallowed.some((prefix) => path.startsWith(prefix)),
        `${path} must stay crawlable`,
      ).toBe(false);
    }
    expect(lines).toContain(`Sitemap: ${PUBLIC_URL}/sitemap.xml`);
  });

  it('falls back to the address the request came to when PUBLIC_URL is not set', async () => {
    const headers = { host: 'localhost:3000' };
    const sitemap = await unconfigured.app.inject({ method: 'GET', url: '/sitemap.xml', headers });
    expect(sitemap.body).toContain('<loc>http://localhost:3000/technology</loc>');
    const robots = await unconfigured.app.inject({ method: 'GET', url: '/robots.txt', headers });
    expect(robots.body).toContain('Sitemap: http://localhost:3000/sitemap.xml');
  });
});
