import { Link } from 'react-router';

import { textLinkClass } from '../../../components/ui-classes';

export function BackToDashboard() {
  return (
    <p className="mt-8">
      <Link to="/user-dashboard" className={textLinkClass}>
        Back to your dashboard
      </Link>
    </p>
  );
}
