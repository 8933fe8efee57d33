import { createBrowserRouter } from 'react-router';

import { AdminDashboardRoute } from '../features/admin/routes/admin-dashboard';
import { LoginRoute } from '../features/auth/routes/login';
import { RegisterRoute } from '../features/auth/routes/register';
import { ContactRoute } from '../features/marketing/routes/contact';
import { DemoRoute } from '../features/marketing/routes/demo';
import { FeaturesRoute } from '../features/marketing/routes/features';
import { HomeRoute } from '../features/marketing/routes/home';
import { PrivacyRoute } from '../features/marketing/routes/privacy';
import { TechnologyRoute } from '../features/marketing/routes/technology';
import { TermsRoute } from '../features/marketing/routes/terms';
import { WaitlistRoute } from '../features/marketing/routes/waitlist';
import { StoreDashboardRoute } from '../features/merchant/routes/store-dashboard';
import { PalmRegisterRoute } from '../features/palm/routes/palm-register';
import { HistoryRoute } from '../features/wallet/routes/history';
import { QrScanRoute } from '../features/wallet/routes/qr-scan';
import { ReceiveRoute } from '../features/wallet/routes/receive';
import { TransferRoute } from '../features/wallet/routes/transfer';
import { UserDashboardRoute } from '../features/wallet/routes/user-dashboard';
import { RootLayout } from './root-layout';
import { RequireAdmin, RequireUser } from './route-guards';
import { NotFoundRoute } from './routes/not-found';
import { RouteError } from './routes/route-error';

/** The route table of spec §2.1 (plus /privacy and /terms). `/dev/outbox` belongs to the server. */
export const router = createBrowserRouter([
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      { path: '/', element: <HomeRoute /> },
      { path: '/technology', element: <TechnologyRoute /> },
      { path: '/features', element: <FeaturesRoute /> },
      { path: '/demo', element: <DemoRoute /> },
      { path: '/contact', element: <ContactRoute /> },
      { path: '/login', element: <LoginRoute /> },
      { path: '/register', element: <RegisterRoute /> },
      { path: '/applicants-register', element: <WaitlistRoute /> },
      {
        path: '/user-dashboard',
        element: (
          <RequireUser>
            <UserDashboardRoute />
          </RequireUser>
        ),
      },
      {
        path: '/admin',
        element: (
          <RequireAdmin>
            <AdminDashboardRoute />
          </RequireAdmin>
        ),
      },
      { path: '/store-dashboard', element: <StoreDashboardRoute /> },
      { path: '/palm-register', element: <PalmRegisterRoute /> },
      { path: '/transfer', element: <TransferRoute /> },
      { path: '/receive', element: <ReceiveRoute /> },
      { path: '/history', element: <HistoryRoute /> },
      { path: '/qr-scan', element: <QrScanRoute /> },
      { path: '/privacy', element: <PrivacyRoute /> },
      { path: '/terms', element: <TermsRoute /> },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
]);
