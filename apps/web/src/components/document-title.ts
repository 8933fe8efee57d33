import { PRODUCT_NAME } from '@hasta/contracts/constants';
import { useEffect } from 'react';

/** Sets the tab title to '{page} · Hasta' (or just 'Hasta' for the home page). */
export function useDocumentTitle(page: string | null): void {
  useEffect(() => {
    document.title = page === null ? PRODUCT_NAME : `${page} · ${PRODUCT_NAME}`;
  }, [page]);
}
