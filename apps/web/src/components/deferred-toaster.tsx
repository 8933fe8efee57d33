import { Suspense, lazy, useEffect, useState } from 'react';
import type { ToasterProps } from 'react-hot-toast';

const Toaster = lazy(() =>
  import('./translated-toaster').then((module) => ({ default: module.TranslatedToaster })),
);

/** Soon after the page has rendered: when the browser is idle, or after a moment where it cannot tell. */
function whenIdle(run: () => void): () => void {
  // Not every browser has requestIdleCallback (Safari before 18).
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(run, { timeout: 2_000 });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = window.setTimeout(run, 200);
  return () => window.clearTimeout(handle);
}

/**
 * react-hot-toast's container, loaded once the first page is up rather than on the first load: toasts come
 * from later actions (a login, a transfer). A toast raised before it mounts waits in react-hot-toast's store
 * and shows when it does.
 */
export function DeferredToaster(props: ToasterProps) {
  const [ready, setReady] = useState(false);
  useEffect(() => whenIdle(() => setReady(true)), []);
  if (!ready) return null;
  return (
    <Suspense fallback={null}>
      <Toaster {...props} />
    </Suspense>
  );
}
