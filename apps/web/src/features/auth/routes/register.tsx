import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';

import { Page } from '../../../components/page';
import { cardClass, textLinkClass } from '../../../components/ui-classes';
import { rememberReferral } from '../../../lib/referral';
import { RegisterFlow } from '../components/register-flow';

/** Registration (spec §2.9): form, check-email, otp, password, then the user dashboard after 2 s. */
export function RegisterRoute() {
  // A friend's share link (/register?ref=CODE): kept until registration is complete (issue 24).
  const [params] = useSearchParams();
  const ref = params.get('ref');
  useEffect(() => rememberReferral(ref), [ref]);
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
