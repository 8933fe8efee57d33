import { Link } from 'react-router';

import { Page } from '../../../components/page';
import { textLinkClass } from '../../../components/ui-classes';

export function PrivacyRoute() {
  return (
    <Page title="Privacy">
      <p className="max-w-3xl text-slate-600">
        Our privacy policy is being written and will be published on this page before Hasta launches. For any
        question about your data in the meantime, see{' '}
        <Link to="/contact" className={textLinkClass}>
          About / Contact
        </Link>
        .
      </p>
    </Page>
  );
}
