/**
 * The site's pages as search engines see them (spec §2.1): the server lists the public ones in
 * /sitemap.xml and keeps crawlers out of the app's pages in /robots.txt; the web app gives the public ones a
 * canonical address and marks the others `noindex`.
 */

/** Public pages: the marketing site, its legal pages, and the way in (login, registration). */
export const PUBLIC_PAGE_PATHS = [
  '/',
  '/technology',
  '/features',
  '/demo',
  '/contact',
  '/applicants-register',
  '/privacy',
  '/terms',
  // The rewards programmes' rules (issue 24), opened from the footer.
  '/rewards/stars',
  '/rewards/points',
  '/login',
  '/register',
] as const;

export type PublicPagePath = (typeof PUBLIC_PAGE_PATHS)[number];

/** The signed-in app and the dashboards: personal, so never indexed. */
export const APP_PAGE_PATHS = [
  '/user-dashboard',
  '/admin',
  '/store-dashboard',
  '/palm-register',
  '/transfer',
  '/receive',
  '/history',
  '/qr-scan',
  // Anyone may check a receipt here; it loads one of the signed-in user's receipts by transaction id.
  '/verify',
  // A palm payment's "Not me?" link: a one-time token in the address, nothing to index.
  '/not-me',
  // A paired store terminal's own screen (issue 22).
  '/terminal',
  // A paired kiosk's own screen (issue 22).
  '/kiosk',
] as const;

export function isPublicPagePath(path: string): path is PublicPagePath {
  return (PUBLIC_PAGE_PATHS as readonly string[]).includes(path);
}
