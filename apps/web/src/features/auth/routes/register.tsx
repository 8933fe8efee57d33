import { PRODUCT_NAME } from '@hasta/contracts/constants';
import { Link } from 'react-router';

import { Page } from '../../../components/page';
import { textLinkClass } from '../../../components/ui-classes';

export function RegisterRoute() {
  return (
    <Page title={`Create your ${PRODUCT_NAME} account`}>
      <p className="max-w-3xl text-slate-600">
        Registration with your email or phone number opens here in an upcoming update.
      </p>
      <p className="mt-6 text-slate-600">
        Already have an account?{' '}
        <Link to="/login" className={textLinkClass}>
          Login
        </Link>
      </p>
    </Page>
  );
}
