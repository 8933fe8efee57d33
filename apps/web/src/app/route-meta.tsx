import { PRODUCT_NAME } from '@hasta/contracts/constants';
import { isPublicPagePath } from '@hasta/contracts/site-pages';
import { useTranslation } from 'react-i18next';
import { useLocation, useMatches } from 'react-router';

import { useDocumentMeta } from '../components/document-meta';
import type { PageKey } from '../components/document-meta';

/** What each route tells the layout: which page it is, for the title and description (`meta.pages`). */
export interface RouteHandle {
  page: PageKey;
}

function isRouteHandle(handle: unknown): handle is RouteHandle {
  return typeof handle === 'object' && handle !== null && 'page' in handle;
}

/** `/technology/` and `/technology` are one page. */
function normalisedPath(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}

/**
 * Gives the current page its own title, description and (for a public page) canonical address, in the
 * visitor's language. Rendered once by the layout, so there is one source of truth for `<head>`.
 */
export function RouteMeta() {
  const { t } = useTranslation('meta');
  const { pathname } = useLocation();
  const matches = useMatches();
  const handle = matches.map((match) => match.handle).findLast(isRouteHandle);
  const page: PageKey = handle?.page ?? 'notFound';
  const name = t(`pages.${page}.title`);
  const path = normalisedPath(pathname);
  useDocumentMeta({
    title: page === 'home' ? `${PRODUCT_NAME} · ${name}` : `${name} · ${PRODUCT_NAME}`,
    description: t(`pages.${page}.description`),
    canonicalUrl: page !== 'notFound' && isPublicPagePath(path) ? `${window.location.origin}${path}` : null,
  });
  return null;
}
