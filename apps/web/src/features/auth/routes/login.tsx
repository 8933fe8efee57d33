import { PRODUCT_NAME } from '@hasta/contracts/constants';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';

import { Page } from '../../../components/page';
import { cardClass, textLinkClass } from '../../../components/ui-classes';
import { LoginForm } from '../components/login-form';
import { hasRememberedOrigin } from '../utils/post-login-path';

/**
 * The login page (spec §2.8). After a login the user goes on with getPostLoginPath(location, user): back to
 * the origin a guard remembered (already in `location`), else /admin or /user-dashboard.
 */
export function LoginRoute() {
  const { t } = useTranslation(['auth', 'meta', 'messages']);
  const location = useLocation();
  return (
    <Page title={t('meta:pages.login.title')}>
      {hasRememberedOrigin(location) ? (
        <p
          role="status"
          className="mb-6 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-amber-900"
        >
          {t('messages:unauthorized')}
        </p>
      ) : null}
      <div className={`${cardClass} max-w-lg`}>
        <LoginForm />
      </div>
      <p className="mt-6 text-slate-600">
        {t('login.newHere', { product: PRODUCT_NAME })}{' '}
        <Link to="/register" className={textLinkClass}>
          {t('login.register')}
        </Link>
      </p>
    </Page>
  );
}
