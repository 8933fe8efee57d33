import { Link } from 'react-router';

import { Page } from '../../components/page';
import { primaryButtonClass } from '../../components/ui-classes';

export function NotFoundRoute() {
  return (
    <Page
      title="Page not found"
      lead="There is no page at this address. It may have moved, or the link may be mistyped."
    >
      <Link to="/" className={primaryButtonClass}>
        Go to the home page
      </Link>
    </Page>
  );
}
