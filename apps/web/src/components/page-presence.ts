import { createContext, useContext } from 'react';

/** False while a page is leaving (animating out after a navigation): see page-transition.tsx. */
export const PagePresenceContext = createContext(true);

/** Whether this page is still the current one; a leaving page should not start anything new. */
export function usePageIsPresent(): boolean {
  return useContext(PagePresenceContext);
}
