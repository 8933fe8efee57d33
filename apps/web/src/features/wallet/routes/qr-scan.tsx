import { Link, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';

import { Page } from '../../../components/page';
import { cardClass, textLinkClass } from '../../../components/ui-classes';
import { useStoredUser } from '../../../lib/auth-storage';
import { buildLoginPath } from '../../../lib/login-redirect';
import { BackToDashboard } from '../components/back-to-dashboard';
import { QrPayScanner } from '../components/qr-pay-scanner';
import type { TransferPrefill } from '../transfer-prefill';

/**
 * Scan QR Code (spec §2.1 /qr-scan): the camera reads a Hasta payment code, the server names the payee, and
 * /transfer opens with the receiver and any fixed amount filled in; the payment still needs its OTP there.
 */
export function QrScanRoute() {
  const { t } = useTranslation(['wallet', 'messages']);
  const user = useStoredUser();
  const navigate = useNavigate();
  const location = useLocation();

  return (
    <Page title={t('qrScan.title')} lead={t('qrScan.lead')}>
      <div className={`${cardClass} max-w-lg`}>
        {user === null ? (
          <p className="text-slate-700">
            {t('messages:unauthorized')}{' '}
            <Link to={buildLoginPath(location)} className={textLinkClass}>
              {t('qrScan.login')}
            </Link>
          </p>
        ) : (
          <QrPayScanner
            onResolved={(payee) => {
              const state: TransferPrefill = { qrPayee: payee };
              void navigate('/transfer', { state });
            }}
          />
        )}
      </div>
      <BackToDashboard />
    </Page>
  );
}
