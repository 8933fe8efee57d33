import { PAGE_TRANSITION_S } from '@hasta/contracts/constants';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { useLocation, useOutlet } from 'react-router';

import { PagePresenceContext } from './page-presence';
import { usePrefersReducedMotion } from './use-prefers-reduced-motion';

const TIMING: KeyframeAnimationOptions = { duration: PAGE_TRANSITION_S * 1000, easing: 'ease-out' };
const ENTER: Keyframe[] = [
  { opacity: 0, transform: 'translateY(8px)' },
  { opacity: 1, transform: 'none' },
];
const EXIT: Keyframe[] = [
  { opacity: 1, transform: 'none' },
  { opacity: 0, transform: 'translateY(-8px)' },
];

interface ShownPage {
  key: string;
  outlet: ReactNode;
}

/**
 * Animates pages in and out (spec §2.1: 0.4 s) with the Web Animations API, so the first load carries no
 * animation library. The outgoing page keeps the outlet it rendered and finishes leaving before the next
 * one enters; while it leaves, `usePageIsPresent()` is false inside it. The first page appears without a
 * transition, and with prefers-reduced-motion every swap is instant.
 */
export function PageTransition() {
  const { pathname } = useLocation();
  const outlet = useOutlet();
  const reduceMotion = usePrefersReducedMotion();
  const [shown, setShown] = useState<ShownPage>({ key: pathname, outlet });
  const [exitedKey, setExitedKey] = useState<string | null>(null);
  const containerRef = useRef<HTMLDivElement>(null);
  const firstKeyRef = useRef(shown.key);

  // Adjusting state while rendering (React's documented pattern): the page on screen follows the route.
  const leaving = shown.key !== pathname;
  if (!leaving && shown.outlet !== outlet) setShown({ key: pathname, outlet });
  if (leaving && (reduceMotion || exitedKey === shown.key)) {
    setShown({ key: pathname, outlet });
    setExitedKey(null);
  }

  const leavingKey = leaving ? shown.key : null;
  useEffect(() => {
    const element = containerRef.current;
    if (leavingKey === null || reduceMotion || element === null) return;
    const animation = element.animate(EXIT, { ...TIMING, fill: 'forwards' });
    animation.onfinish = () => setExitedKey(leavingKey);
    // Coming back before the page has left (or a new preference) stops the exit where it is.
    return () => animation.cancel();
  }, [leavingKey, reduceMotion]);

  // Before paint, so the next page never flashes at full opacity.
  useLayoutEffect(() => {
    const element = containerRef.current;
    if (shown.key === firstKeyRef.current || reduceMotion || element === null) return;
    const animation = element.animate(ENTER, TIMING);
    return () => animation.cancel();
  }, [shown.key, reduceMotion]);

  return (
    <PagePresenceContext.Provider value={!leaving}>
      <div key={shown.key} ref={containerRef}>
        {shown.outlet}
      </div>
    </PagePresenceContext.Provider>
  );
}
