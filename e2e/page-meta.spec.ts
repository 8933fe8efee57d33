import { PUBLIC_PAGE_PATHS } from '@hasta/contracts/site-pages';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';

import { PERSON_PAGES, UNGUARDED_APP_PAGES } from './support/routes';
import { loginAs, shopper } from './support/storage';

interface HeadMeta {
  title: string;
  descriptions: string[];
  canonicals: string[];
  robots: string[];
}

/** What `<head>` says about the page once it has rendered. */
async function headMeta(page: Page): Promise<HeadMeta> {
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  return page.evaluate(() => ({
    title: document.title,
    descriptions: [...document.querySelectorAll<HTMLMetaElement>('meta[name="description"]')].map(
      (meta) => meta.content,
    ),
    canonicals: [...document.querySelectorAll<HTMLLinkElement>('link[rel="canonical"]')].map(
      (link) => link.href,
    ),
    robots: [...document.querySelectorAll<HTMLMetaElement>('meta[name="robots"]')].map(
      (meta) => meta.content,
    ),
  }));
}

test.describe('titles and descriptions', () => {
  for (const language of ['en', 'hi'] as const) {
    test(`every public page has its own title, description and canonical address (${language})`, async ({
      page,
      baseURL,
    }) => {
      await page.addInitScript((stored) => window.localStorage.setItem('language', stored), language);
      const titles = new Map<string, string>();
      const descriptions = new Map<string, string>();
      for (const path of PUBLIC_PAGE_PATHS) {
        await test.step(path, async () => {
          await page.goto(path);
          await expect(page.locator('html')).toHaveAttribute('lang', language);
          const meta = await headMeta(page);
          expect(meta.title.trim(), `title of ${path}`).not.toBe('');
          expect(meta.title).toContain('Hasta');
          expect(meta.descriptions, `one description on ${path}`).toHaveLength(1);
          expect(meta.descriptions[0]?.trim().length ?? 0, `description of ${path}`).toBeGreaterThan(40);
          expect(meta.canonicals).toEqual([`${baseURL}${path}`]);
          expect(meta.robots).toEqual([]);
          titles.set(path, meta.title);
          descriptions.set(path, meta.descriptions[0] ?? '');
        });
      }
      expect(new Set(titles.values()).size, [...titles.values()].join(' | ')).toBe(PUBLIC_PAGE_PATHS.length);
      expect(new Set(descriptions.values()).size).toBe(PUBLIC_PAGE_PATHS.length);
      if (language === 'hi') {
        // Translated, not the English texts: Devanagari in every title and description.
        for (const text of [...titles.values(), ...descriptions.values()])
          expect(text).toMatch(/[\u0900-\u097F]/);
      }
    });
  }

  test('client-side navigation and the language switch update the one title and description', async ({
    page,
  }) => {
    await page.goto('/');
    const home = await headMeta(page);
    expect(home.title).toBe('Hasta · Pay with the palm of your hand');

    await page
      .getByRole('navigation', { name: 'Site' })
      .getByRole('link', { name: 'Features', exact: true })
      .click();
    await expect(page).toHaveTitle('Features · Hasta');
    const features = await headMeta(page);
    expect(features.descriptions).toHaveLength(1);
    expect(features.descriptions[0]).not.toBe(home.descriptions[0]);
    expect(features.canonicals).toEqual([page.url()]);

    await page.getByLabel('Language').selectOption('hi');
    await expect(page).toHaveTitle('विशेषताएँ · Hasta');
    const hindi = await headMeta(page);
    expect(hindi.descriptions).toHaveLength(1);
    expect(hindi.descriptions[0]).toMatch(/[\u0900-\u097F]/);
  });

  test('app pages have their own titles and are kept out of search results', async ({ page }) => {
    // A stored user: the person's pages are guarded.
    await loginAs(page, shopper);
    const appPages = [...UNGUARDED_APP_PAGES, ...PERSON_PAGES];
    const titles = new Set<string>();
    for (const { path } of appPages) {
      if ((PUBLIC_PAGE_PATHS as readonly string[]).includes(path)) continue;
      await test.step(path, async () => {
        await page.goto(path);
        const meta = await headMeta(page);
        titles.add(meta.title);
        expect(meta.descriptions).toHaveLength(1);
        expect(meta.canonicals).toEqual([]);
        expect(meta.robots).toEqual(['noindex']);
      });
    }
    expect(titles.size).toBe(
      appPages.filter(({ path }) => !(PUBLIC_PAGE_PATHS as readonly string[]).includes(path)).length,
    );

    await page.goto('/no-such-page');
    const missing = await headMeta(page);
    expect(missing.title).toBe('Page not found · Hasta');
    expect(missing.robots).toEqual(['noindex']);
  });
});
