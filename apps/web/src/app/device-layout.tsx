import { APP_TOAST_MS } from '@hasta/contracts/constants';
import { Outlet } from 'react-router';

import { DeferredToaster } from '../components/deferred-toaster';
import { MAIN_CONTENT_ID, SkipLink } from '../components/skip-link';
import { RouteMeta } from './route-meta';

const toastOptions = { duration: APP_TOAST_MS, loading: { duration: Number.POSITIVE_INFINITY } };

/**
 * The layout of a paired device's own mode (issue 22: /kiosk, /terminal): the whole screen is the mode, with
 * no site navigation and no footer to wander off through; the page's title, the skip link and toasts stay.
 */
export function DeviceLayout() {
  return (
    <div className="flex min-h-dvh flex-col bg-slate-50 text-slate-900">
      <RouteMeta />
      <SkipLink />
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="flex-1 focus:outline-none">
        <Outlet />
      </main>
      <DeferredToaster position="top-right" toastOptions={toastOptions} containerStyle={{ top: 16 }} />
    </div>
  );
}
