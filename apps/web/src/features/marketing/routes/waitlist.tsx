import { useTranslation } from 'react-i18next';

import { Page } from '../../../components/page';
import { WaitlistForm } from '../components/waitlist-form';

/** The waitlist page (spec §2.10). */
export function WaitlistRoute() {
  const { t } = useTranslation('waitlist');
  return (
    <Page title={t('title')} lead={t('lead')}>
      <WaitlistForm />
    </Page>
  );
}
