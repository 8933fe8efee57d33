import { APP_TOAST_MS } from '@hasta/contracts/constants';
import { ScrollRestoration } from 'react-router';

import { DeferredToaster } from '../components/deferred-toaster';
import { Footer } from '../components/footer';
import { Navbar } from '../components/navbar';
import { PageTransition } from '../components/page-transition';
import { MAIN_CONTENT_ID, SkipLink } from '../components/skip-link';
import { RouteMeta } from './route-meta';

/**
 * Toasts (spec §2.1, §9): top-right, 3.5 s on the app; a loading toast still waits for its outcome.
 * react-hot-toast already keeps at most 20 (its TOAST_LIMIT), as the spec asks.
 */
const toastOptions = { duration: APP_TOAST_MS, loading: { duration: Number.POSITIVE_INFINITY } };

export function RootLayout() {
  return (
    <div className="flex min-h-dvh flex-col bg-white text-slate-900">
      <RouteMeta />
      <SkipLink />
      <Navbar />
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="flex-1 pt-16 focus:outline-none lg:pt-[6.75rem]">
        <PageTransition />
      </main>
      <Footer />
      <DeferredToaster position="top-right" toastOptions={toastOptions} containerStyle={{ top: 80 }} />
      <ScrollRestoration />
    </div>
  );
}
