import { PRODUCT_NAME } from '@hasta/contracts/constants';
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';

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
  return (
    <Page title={`Create your ${PRODUCT_NAME} account`}>
      <div className={`${cardClass} max-w-lg`}>
        <RegisterFlow />
      </div>
      <p className="mt-6 text-slate-600">
        Already have an account?{' '}
        <Link to="/login" className={textLinkClass}>
          Login
        </Link>
      </p>
    </Page>
  );
}
