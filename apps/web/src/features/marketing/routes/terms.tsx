import { Link } from 'react-router';

import { Page } from '../../../components/page';
import { textLinkClass } from '../../../components/ui-classes';

export function TermsRoute() {
  return (
    <Page title="Terms">
      <p className="max-w-3xl text-slate-600">
        The terms of service are being written and will be published on this page before Hasta launches. For
        any question in the meantime, see{' '}
        <Link to="/contact" className={textLinkClass}>
          About / Contact
        </Link>
        .
      </p>
    </Page>
  );
}
