import { expect, test } from '@playwright/test';
import type { Browser, Page, PlaywrightWorkerArgs } from '@playwright/test';

import { loadAllResources } from '../apps/web/src/lib/i18n-resources';
import { ADMIN_EMAIL, ADMIN_PASSWORD, registerAccount } from './support/accounts';
import { axeViolations } from './support/axe';
import { englishRuns, shownTexts } from './support/english-leaks';
import { VENDOR_ADDRESS, VENDOR_OWNER_NAME, createMerchant } from './support/merchant';
import { stepUpByApi } from './support/step-up';
import { adminSession, giveValue, pageFor } from './support/wallet';

/**
 * Every route as each role sees it, at a phone's 390 px and a desktop's 1440 px, in English and in Hindi
 * (issue 27): the page never scrolls sideways (tables scroll inside their own box or stack), axe finds no
 * violation, and in Hindi no text is missing from the catalogue nor left in English: neither a catalogue text
 * shown in English nor English typed straight into a component (support/english-leaks.ts: any Latin word
 * that is not data nor on its short allow-list). One test per role, width and language; each collects every
 * problem of its walk so a failure lists them all.
 */

type Role = 'signed out' | 'person' | 'store owner' | 'admin';
type Language = 'en' | 'hi';

/** A stop of the walk: a route, and optionally the tab opened there (by position: names are translated). */
interface Stop {
  path: string;
  tab?: number;
  /** A step taken there first, to show a later state of the page (named in failures). */
  step?: { name: string; take: (page: Page) => Promise<void> };
}

/** /receive once an amount is confirmed: the expected amount, and the palm step without a camera. */
const RECEIVE_CONFIRMED: Stop['step'] = {
  name: 'amount confirmed',
  take: async (page) => {
    // The person's browser becomes their device on its first palm scan, after a step-up (issue 22): with it
    // done, the palm step shows the scanner.
    const stored = await page.evaluate(() => window.localStorage.getItem('user'));
    const user = JSON.parse(stored ?? '{}') as { email?: string | null; phone?: string | null };
    await stepUpByApi(page.request, user.email ?? user.phone ?? '');
    const main = page.getByRole('main');
    await main.getByRole('spinbutton').fill('50');
    await main.locator('form button[type="submit"]').click();
    await expect(main.locator('#receive-palm')).toBeVisible();
    // This browser has no camera: the scanner says so (the form's empty alert is gone with the form).
    await expect(main.getByRole('alert').filter({ hasText: /\S/ })).toBeVisible();
  },
};

const PUBLIC_STOPS: Stop[] = [
  '/',
  '/technology',
  '/features',
  '/demo',
  '/contact',
  '/applicants-register',
  '/login',
  '/register',
  '/palm-register',
  '/transfer',
  '/receive',
  '/history',
  '/qr-scan',
  '/verify',
  '/not-me',
  '/privacy',
  '/terms',
  '/rewards/stars',
  '/rewards/points',
  '/missing-page',
].map((path) => ({ path }));

const PERSON_STOPS: Stop[] = [
  { path: '/' },
  { path: '/user-dashboard', tab: 0 },
  { path: '/user-dashboard', tab: 1 },
  { path: '/user-dashboard', tab: 2 },
  { path: '/user-dashboard', tab: 3 },
  { path: '/palm-register' },
  { path: '/transfer' },
  { path: '/receive' },
  { path: '/receive', step: RECEIVE_CONFIRMED },
  { path: '/history' },
  { path: '/qr-scan' },
];

const STORE_STOPS: Stop[] = [
  ...[0, 1, 2, 3, 4].map((tab) => ({ path: '/store-dashboard', tab })),
  { path: '/user-dashboard' },
];

const ADMIN_STOPS: Stop[] = [0, 1, 2, 3, 4, 5, 6, 7, 8].map((tab) => ({ path: '/admin', tab }));

const STOPS: Record<Role, Stop[]> = {
  'signed out': PUBLIC_STOPS,
  person: PERSON_STOPS,
  'store owner': STORE_STOPS,
  admin: ADMIN_STOPS,
};

type Tree = { [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ''): Array<[string, string]> {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string'
      ? [[`${prefix}${key}`, value] as [string, string]]
      : leaves(value, `${prefix}${key}.`),
  );
}

/**
 * The catalogue's English texts whose Hindi differs, that a Hindi page must therefore not show: whole
 * sentences and labels (two words or more), without placeholders or markup, which would never match as such.
 */
async function englishOnlyTexts(): Promise<string[]> {
  const english = new Map(leaves((await loadAllResources('en')) as unknown as Tree));
  const hindi = new Map(leaves((await loadAllResources('hi')) as unknown as Tree));
  return [...english]
    .filter(([key, text]) => hindi.get(key) !== text)
    .map(([, text]) => text)
    .filter(
      (text) => !text.includes('{{') && !text.includes('<') && /\S+\s+\S+/.test(text) && text.length >= 8,
    );
}

/** A role's page, and the data the test made for it (names, emails): shown as typed in either language. */
interface RolePage {
  page: Page;
  data: string[];
}

const accountData = (account: { user: { username: string }; contact: string }) => [
  account.user.username,
  account.contact,
];

async function pageForRole(
  role: Role,
  browser: Browser,
  playwright: PlaywrightWorkerArgs['playwright'],
  baseURL: string | undefined,
): Promise<RolePage> {
  if (role === 'signed out') {
    const context = await browser.newContext(baseURL === undefined ? {} : { baseURL });
    return { page: await context.newPage(), data: [] };
  }
  if (role === 'admin') {
    // Something in every list the admin opens: a person with value issued to them.
    const request = await playwright.request.newContext(baseURL === undefined ? {} : { baseURL });
    const person = await registerAccount(request, { channel: 'email' });
    await request.dispose();
    const admin = await adminSession(playwright, baseURL);
    await giveValue(admin, person.user.id, 125);
    await admin.dispose();
    const page = await pageFor(browser, baseURL, {
      channel: 'email',
      contact: ADMIN_EMAIL,
      password: ADMIN_PASSWORD,
    });
    return { page, data: [...accountData(person), ADMIN_EMAIL] };
  }
  if (role === 'store owner') {
    const merchant = await createMerchant(playwright, baseURL, `Fit Test Store ${Date.now()}`);
    const page = await pageFor(browser, baseURL, merchant);
    // A QR code, so Generate QR shows its list of codes too.
    const created = await page.request.post('/api/merchant/qr-codes', {
      data: { amount: 150, label: 'Counter 2' },
    });
    expect(created.status(), await created.text()).toBe(200);
    return {
      page,
      data: [merchant.storeName, merchant.contact, VENDOR_OWNER_NAME, VENDOR_ADDRESS, 'Counter 2'],
    };
  }
  const request = await playwright.request.newContext(baseURL === undefined ? {} : { baseURL });
  const person = await registerAccount(request, { channel: 'email' });
  await request.dispose();
  // Money received, so the wallet and the history show an entry, not only their empty states.
  const admin = await adminSession(playwright, baseURL);
  await giveValue(admin, person.user.id, 125);
  await admin.dispose();
  return { page: await pageFor(browser, baseURL, person), data: accountData(person) };
}

/** What sticks out past the right edge, deepest first (to name the culprit in a failure). */
async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const limit = window.innerWidth;
    const out: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>('body *')) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.right <= limit + 0.5) continue;
      // Inside a box that scrolls or clips sideways: contained, not the page's overflow.
      let contained = false;
      for (let parent = element.parentElement; parent !== null; parent = parent.parentElement) {
        const overflowX = getComputedStyle(parent).overflowX;
        if (overflowX !== 'visible') {
          contained = parent.getBoundingClientRect().right <= limit + 0.5;
          break;
        }
      }
      if (contained) continue;
      const name = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}.${[...element.classList].slice(0, 4).join('.')}`;
      out.push(
        `${name} (right ${Math.round(box.right)} px): ${(element.textContent ?? '').trim().slice(0, 40)}`,
      );
    }
    return out.slice(-5);
  });
}

async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // Loading texts gone (English or Hindi).
  await expect(page.getByText(/^(Loading .*\.\.\.|.*लोड हो रह[ाेी] हैं?\.\.\.)$/)).toHaveCount(0);
}

for (const role of Object.keys(STOPS) as Role[]) {
  for (const width of [390, 1440]) {
    for (const language of ['en', 'hi'] as const satisfies readonly Language[]) {
      test(`${role} at ${width} px in ${language === 'en' ? 'English' : 'Hindi'}: every route fits, passes axe${language === 'hi' ? ', and is all Hindi' : ''}`, async ({
        browser,
        playwright,
        baseURL,
      }) => {
        // One walk of up to 18 routes, each with an axe run.
        test.setTimeout(300_000);
        const forbidden = language === 'hi' ? await englishOnlyTexts() : [];
        const { page, data } = await pageForRole(role, browser, playwright, baseURL);
        await page.setViewportSize({ width, height: 900 });
        await page.emulateMedia({ reducedMotion: 'reduce' });
        await page.context().addInitScript((chosen) => {
          window.localStorage.setItem('language', chosen);
        }, language);
        const problems: string[] = [];
        for (const stop of STOPS[role]) {
          const where =
            (stop.tab === undefined ? stop.path : `${stop.path} tab ${stop.tab + 1}`) +
            (stop.step === undefined ? '' : ` (${stop.step.name})`);
          await page.goto(stop.path);
          await settle(page);
          expect(await page.evaluate(() => document.documentElement.lang), where).toBe(language);
          if (stop.tab !== undefined) {
            await page.getByRole('tab').nth(stop.tab).click();
            await settle(page);
          }
          if (stop.step !== undefined) {
            await stop.step.take(page);
            await settle(page);
          }
          const widths = await page.evaluate(() => ({
            scroll: document.documentElement.scrollWidth,
            inner: window.innerWidth,
          }));
          if (widths.scroll > widths.inner) {
            problems.push(
              `${where}: ${widths.scroll} px wide at ${widths.inner} px: ${(await overflowing(page)).join(' | ')}`,
            );
          }
          for (const violation of await axeViolations(page)) problems.push(`${where}: axe ${violation}`);
          if (language === 'hi') {
            const missing = await page.evaluate(() => window.__missingTranslations ?? []);
            for (const key of new Set(missing)) problems.push(`${where}: missing translation ${key}`);
            const shown = await page.evaluate(() => document.body.innerText);
            for (const text of forbidden) {
              if (shown.includes(text)) problems.push(`${where}: English left: "${text}"`);
            }
            // And English that never was in the catalogue: typed straight into a component.
            for (const run of englishRuns(await shownTexts(page), data)) {
              problems.push(`${where}: English typed in: ${run}`);
            }
          }
        }
        await page.context().close();
        expect(problems).toEqual([]);
      });
    }
  }
}

declare global {
  interface Window {
    __missingTranslations?: string[];
  }
}
