import type { ComponentType } from 'react';
import { createBrowserRouter } from 'react-router';
import type { RouteObject } from 'react-router';

import type { PageKey } from '../components/document-meta';
import { loadPageNamespaces } from '../lib/i18n';
import type { Namespace } from '../lib/i18n-resources';
import { DeviceLayout } from './device-layout';
import { RootLayout } from './root-layout';
import type { RouteHandle } from './route-meta';
import { RouteError } from './routes/route-error';

type LoadRoute = () => Promise<{ Component: ComponentType }>;

interface PageOptions {
  /** The page's own texts beyond the shell's (locales/<language>/<namespace>.ts). */
  namespaces?: readonly Namespace[];
  /**
   * Whether the page gets the query client (TanStack Query), loaded with it; true unless the page fetches
   * nothing when it opens. The home page does not: its first load stays within its budget
   * (`npm run bench:web`), and its dialogs bring the client with them when opened.
   */
  queries?: boolean;
}

/**
 * A page whose code and texts load when it is first visited (route-level code splitting): the first load
 * carries the shell and the page at hand, not the whole app. The router waits for them before it shows the
 * page.
 */
function page(path: string, key: PageKey, load: LoadRoute, options: PageOptions = {}): RouteObject {
  const { namespaces = [], queries = true } = options;
  const handle: RouteHandle = { page: key };
  return {
    path,
    handle,
    lazy: async () => {
      const [{ Component }, data] = await Promise.all([
        load(),
        queries ? import('../components/query-provider') : null,
        loadPageNamespaces(namespaces),
      ]);
      if (data === null) return { Component };
      const { QueryProvider } = data;
      return {
        Component: () => (
          <QueryProvider>
            <Component />
          </QueryProvider>
        ),
      };
    },
  };
}

/** The route table of spec §2.1 (plus /privacy and /terms). `/dev/outbox` belongs to the server. */
export const router = createBrowserRouter([
  // A paired device's own screens (issue 22): full screen, no site navigation.
  {
    element: <DeviceLayout />,
    errorElement: <RouteError />,
    HydrateFallback: () => null,
    children: [
      page(
        '/terminal',
        'terminal',
        async () => {
          const [{ TerminalRoute }, { PalmPaymentCode }] = await Promise.all([
            import('../features/devices/routes/terminal'),
            import('../features/palm/components/palm-payment-code'),
          ]);
          return { Component: () => <TerminalRoute codeStep={PalmPaymentCode} /> };
        },
        { namespaces: ['devices', 'palmScan', 'merchant'] },
      ),
      page(
        '/kiosk',
        'kiosk',
        async () => ({
          Component: (await import('../features/devices/routes/kiosk')).KioskRoute,
        }),
        { namespaces: ['kiosk', 'devices', 'palmScan', 'app'] },
      ),
    ],
  },
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    // The first page's module is loading: the static document shows until it is ready.
    HydrateFallback: () => null,
    children: [
      page(
        '/',
        'home',
        async () => ({
          Component: (await import('../features/marketing/routes/home')).HomeRoute,
        }),
        { namespaces: ['home', 'marketing'], queries: false },
      ),
      page(
        '/technology',
        'technology',
        async () => ({
          Component: (await import('../features/marketing/routes/technology')).TechnologyRoute,
        }),
        { namespaces: ['technology', 'marketing'] },
      ),
      page(
        '/features',
        'features',
        async () => ({
          Component: (await import('../features/marketing/routes/features')).FeaturesRoute,
        }),
        { namespaces: ['features', 'marketing'] },
      ),
      page(
        '/demo',
        'demo',
        async () => ({
          Component: (await import('../features/marketing/routes/demo')).DemoRoute,
        }),
        { namespaces: ['demo', 'marketing'] },
      ),
      page(
        '/contact',
        'contact',
        async () => ({
          Component: (await import('../features/marketing/routes/contact')).ContactRoute,
        }),
        { namespaces: ['contact', 'marketing'] },
      ),
      page(
        '/login',
        'login',
        async () => ({
          Component: (await import('../features/auth/routes/login')).LoginRoute,
        }),
        { namespaces: ['app', 'auth'] },
      ),
      page(
        '/register',
        'register',
        async () => ({
          Component: (await import('../features/auth/routes/register')).RegisterRoute,
        }),
        { namespaces: ['app', 'auth'] },
      ),
      page(
        '/applicants-register',
        'waitlist',
        async () => ({
          Component: (await import('../features/marketing/routes/waitlist')).WaitlistRoute,
        }),
        { namespaces: ['waitlist', 'marketing'] },
      ),
      page(
        '/user-dashboard',
        'userDashboard',
        async () => {
          const [{ RequireUser }, { UserDashboardRoute }, { ConsentTab }, { RewardsTab }] = await Promise.all(
            [
              import('./route-guards'),
              import('../features/wallet/routes/user-dashboard'),
              import('../features/consent/components/consent-tab'),
              import('../features/rewards/components/rewards-tab'),
            ],
          );
          return {
            Component: () => (
              <RequireUser>
                <UserDashboardRoute consentTab={ConsentTab} rewardsTab={RewardsTab} />
              </RequireUser>
            ),
          };
        },
        { namespaces: ['rewards', 'app', 'consent', 'wallet'] },
      ),
      page(
        '/admin',
        'admin',
        async () => {
          const [{ RequireAdmin }, { AdminDashboardRoute }] = await Promise.all([
            import('./route-guards'),
            import('../features/admin/routes/admin-dashboard'),
          ]);
          return {
            Component: () => (
              <RequireAdmin>
                <AdminDashboardRoute />
              </RequireAdmin>
            ),
          };
        },
        // The Users tab's rewards columns and summary (issue 24).
        { namespaces: ['rewards', 'admin', 'app'] },
      ),
      page(
        '/store-dashboard',
        'storeDashboard',
        async () => {
          const [{ RequireMerchant }, { NotAMerchantRoute, StoreDashboardRoute }, { StorePalmScanner }] =
            await Promise.all([
              import('./route-guards'),
              import('../features/merchant/routes/store-dashboard'),
              import('../features/palm/components/store-palm-scanner'),
            ]);
          return {
            Component: () => (
              <RequireMerchant notMerchant={<NotAMerchantRoute />}>
                <StoreDashboardRoute palmScanner={StorePalmScanner} />
              </RequireMerchant>
            ),
          };
        },
        { namespaces: ['palmScan', 'merchant', 'app', 'devices'] },
      ),
      page(
        '/palm-register',
        'palmRegister',
        async () => {
          const [{ RequireUser }, { PalmRegisterRoute }] = await Promise.all([
            import('./route-guards'),
            import('../features/palm/routes/palm-register'),
          ]);
          return {
            Component: () => (
              <RequireUser>
                <PalmRegisterRoute />
              </RequireUser>
            ),
          };
        },
        { namespaces: ['palmScan', 'app', 'devices'] },
      ),
      page(
        '/transfer',
        'transfer',
        async () => {
          const [{ RequireUser }, { TransferRoute }] = await Promise.all([
            import('./route-guards'),
            import('../features/wallet/routes/transfer'),
          ]);
          return {
            Component: () => (
              <RequireUser>
                <TransferRoute />
              </RequireUser>
            ),
          };
        },
        { namespaces: ['app', 'wallet'] },
      ),
      page(
        '/receive',
        'receive',
        async () => {
          const [{ RequireUser }, { ReceiveRoute }, { ReceivePalmAuthentication }] = await Promise.all([
            import('./route-guards'),
            import('../features/wallet/routes/receive'),
            import('../features/palm/components/receive-palm-authentication'),
          ]);
          return {
            Component: () => (
              <RequireUser>
                <ReceiveRoute palmStep={ReceivePalmAuthentication} />
              </RequireUser>
            ),
          };
        },
        { namespaces: ['palmScan', 'app', 'wallet', 'devices'] },
      ),
      page(
        '/history',
        'history',
        async () => {
          const [{ RequireUser }, { HistoryRoute }] = await Promise.all([
            import('./route-guards'),
            import('../features/wallet/routes/history'),
          ]);
          return {
            Component: () => (
              <RequireUser>
                <HistoryRoute />
              </RequireUser>
            ),
          };
        },
        { namespaces: ['app', 'wallet'] },
      ),
      page(
        '/verify',
        'verify',
        async () => ({
          Component: (await import('../features/receipts/routes/verify')).VerifyRoute,
        }),
        { namespaces: ['app', 'receipts'] },
      ),
      // The "Not me?" link of a palm payment's notice: no login, its one-time token is the authority.
      page(
        '/not-me',
        'notMe',
        async () => ({
          Component: (await import('../features/palm/routes/not-me')).NotMeRoute,
        }),
        { namespaces: ['notMe', 'app'] },
      ),
      page(
        '/qr-scan',
        'qrScan',
        async () => ({
          Component: (await import('../features/wallet/routes/qr-scan')).QrScanRoute,
        }),
        { namespaces: ['app', 'wallet'] },
      ),
      page(
        '/privacy',
        'privacy',
        async () => ({
          Component: (await import('../features/marketing/routes/privacy')).PrivacyRoute,
        }),
        { namespaces: ['legal'] },
      ),
      page(
        '/terms',
        'terms',
        async () => ({
          Component: (await import('../features/marketing/routes/terms')).TermsRoute,
        }),
        { namespaces: ['legal'] },
      ),
      // The rewards programmes' rules (issue 24), opened from the footer.
      page(
        '/rewards/stars',
        'starsProgramme',
        async () => ({
          Component: (await import('../features/rewards/routes/stars-programme')).StarsProgrammeRoute,
        }),
        { namespaces: ['rewards'] },
      ),
      page(
        '/rewards/points',
        'pointsProgramme',
        async () => ({
          Component: (await import('../features/rewards/routes/points-programme')).PointsProgrammeRoute,
        }),
        { namespaces: ['rewards'] },
      ),
      page(
        '*',
        'notFound',
        async () => ({
          Component: (await import('./routes/not-found')).NotFoundRoute,
        }),
        { namespaces: ['app'] },
      ),
    ],
  },
]);
