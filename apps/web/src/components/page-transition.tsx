import { PAGE_TRANSITION_S } from '@hasta/contracts/constants';
import { AnimatePresence, motion, useReducedMotion } from 'motion/react';
import { useLocation, useOutlet } from 'react-router';

/**
 * Animates pages in and out (spec §2.1: 0.4 s). The outgoing page keeps the outlet it rendered, so it
 * finishes leaving before the next one enters. With prefers-reduced-motion the swap is instant.
 */
export function PageTransition() {
  const { pathname } = useLocation();
  const outlet = useOutlet();
  const reduceMotion = useReducedMotion() === true;

  if (reduceMotion) return <div key={pathname}>{outlet}</div>;

  return (
    <AnimatePresence mode="wait" initial={false}>
      <motion.div
        key={pathname}
        initial={{ opacity: 0, y: 8 }}
        animate={{ opacity: 1, y: 0 }}
        exit={{ opacity: 0, y: -8 }}
        transition={{ duration: PAGE_TRANSITION_S, ease: 'easeOut' }}
      >
        {outlet}
      </motion.div>
    </AnimatePresence>
  );
}
