import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { Page } from '../../components/page';
import { primaryButtonClass } from '../../components/ui-classes';

export function NotFoundRoute() {
  const { t } = useTranslation('app');
  return (
    <Page title={t('notFound.title')} lead={t('notFound.lead')}>
      <Link to="/" className={primaryButtonClass}>
        {t('notFound.home')}
      </Link>
    </Page>
  );
}
