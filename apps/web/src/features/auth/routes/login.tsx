import { PRODUCT_NAME } from '@hasta/contracts/constants';
import { messages } from '@hasta/contracts/messages';
import { Link, useLocation } from 'react-router';

import { Page } from '../../../components/page';
import { textLinkClass } from '../../../components/ui-classes';
import { hasRememberedOrigin } from '../utils/post-login-path';

/**
 * The login page (spec §2.8). Sign-in itself arrives with the auth issue, which sends the user on with
 * getPostLoginPath(location, user); the origin a guard remembered is already in `location`.
 */
export function LoginRoute() {
  const location = useLocation();
  return (
    <Page title={`Login to ${PRODUCT_NAME}`}>
      {hasRememberedOrigin(location) ? (
        <p
          role="status"
          className="mb-6 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-amber-900"
        >
          {messages.unauthorized}
        </p>
      ) : null}
      <p className="max-w-3xl text-slate-600">
        Logging in with a one-time code or a password opens here in an upcoming update.
      </p>
      <p className="mt-6 text-slate-600">
        New to {PRODUCT_NAME}?{' '}
        <Link to="/register" className={textLinkClass}>
          Register
        </Link>
      </p>
    </Page>
  );
}
