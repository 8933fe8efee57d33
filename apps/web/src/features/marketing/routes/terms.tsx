import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { Page } from '../../../components/page';
import { textLinkClass } from '../../../components/ui-classes';

export function TermsRoute() {
  const { t } = useTranslation('legal');
  return (
    <Page title={t('terms.title')}>
      <p className="max-w-3xl text-slate-600">
        {t('terms.body')}{' '}
        <Link to="/contact" className={textLinkClass}>
          {t('contactLink')}
        </Link>
        .
      </p>
    </Page>
  );
}
