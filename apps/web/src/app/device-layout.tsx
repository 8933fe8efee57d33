import { APP_TOAST_MS } from '@hasta/contracts/constants';
import { Outlet } from 'react-router';

import { DeferredToaster } from '../components/deferred-toaster';
import { RouteMeta } from './route-meta';

const toastOptions = { duration: APP_TOAST_MS, loading: { duration: Number.POSITIVE_INFINITY } };

/**
 * The layout of a paired device's own screens (issue 22: /terminal, /kiosk): full screen, no site navigation
 * or footer, so a customer at the counter cannot wander into the site. Each page renders its own <main>.
 */
export function DeviceLayout() {
  return (
    <div className="min-h-dvh bg-slate-100 text-slate-900">
      <RouteMeta />
      <Outlet />
      <DeferredToaster position="top-right" toastOptions={toastOptions} />
    </div>
  );
}
