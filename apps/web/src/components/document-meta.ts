import { useEffect } from 'react';

import type { meta } from '../locales/en/meta';

/** A page with its own title and description (locales `meta.pages`). */
export type PageKey = keyof typeof meta.pages;

export interface DocumentMeta {
  /** The whole `<title>`. */
  title: string;
  description: string;
  /** Absolute address search engines should index the page under; null for a page not to index. */
  canonicalUrl: string | null;
}

/** The one element matching `selector` in `<head>`: extras removed, created by `create` when missing. */
function singleHeadElement<T extends Element>(selector: string, create: () => T): T {
  const [first, ...extras] = document.head.querySelectorAll<T>(selector);
  for (const extra of extras) extra.remove();
  if (first !== undefined) return first;
  const element = create();
  document.head.append(element);
  return element;
}

function namedMeta(name: string): HTMLMetaElement {
  return singleHeadElement(`meta[name="${name}"]`, () => {
    const element = document.createElement('meta');
    element.name = name;
    return element;
  });
}

/**
 * Writes the page's title, description and canonical link into `<head>`, updating the elements index.html
 * ships rather than adding more: there is always exactly one of each. A page not to index gets
 * `robots: noindex` and no canonical link.
 */
export function applyDocumentMeta({ title, description, canonicalUrl }: DocumentMeta): void {
  document.title = title;
  namedMeta('description').content = description;
  if (canonicalUrl === null) {
    document.head.querySelectorAll('link[rel="canonical"]').forEach((link) => link.remove());
    namedMeta('robots').content = 'noindex';
  } else {
    const link = singleHeadElement<HTMLLinkElement>('link[rel="canonical"]', () => {
      const element = document.createElement('link');
      element.rel = 'canonical';
      return element;
    });
    link.href = canonicalUrl;
    document.head.querySelectorAll('meta[name="robots"]').forEach((robots) => robots.remove());
  }
}

/** Keeps `<head>` in step with the page (and its language). */
export function useDocumentMeta({ title, description, canonicalUrl }: DocumentMeta): void {
  useEffect(() => {
    applyDocumentMeta({ title, description, canonicalUrl });
  }, [title, description, canonicalUrl]);
}
