import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';

import { Page } from '../../../components/page';
import { cardClass, textLinkClass } from '../../../components/ui-classes';
import { RegisterFlow } from '../components/register-flow';

/** Registration (spec §2.9): form, check-email, otp, password, then the user dashboard after 2 s. */
export function RegisterRoute() {
  const { t } = useTranslation(['auth', 'meta']);
  return (
    <Page title={t('meta:pages.register.title')}>
      <div className={`${cardClass} max-w-lg`}>
        <RegisterFlow />
      </div>
      <p className="mt-6 text-slate-600">
        {t('register.haveAccount')}{' '}
        <Link to="/login" className={textLinkClass}>
          {t('register.login')}
        </Link>
      </p>
    </Page>
  );
}
