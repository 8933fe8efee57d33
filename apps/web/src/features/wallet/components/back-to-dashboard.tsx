import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { textLinkClass } from '../../../components/ui-classes';

export function BackToDashboard() {
  const { t } = useTranslation('wallet');
  return (
    <p className="mt-8">
      <Link to="/user-dashboard" className={textLinkClass}>
        {t('backToDashboard')}
      </Link>
    </p>
  );
}
