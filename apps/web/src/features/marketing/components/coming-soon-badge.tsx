import { useTranslation } from 'react-i18next';

import { Badge } from '../../../components/badge';

export function ComingSoonBadge() {
  const { t } = useTranslation();
  return <Badge>{t('comingSoon.badge')}</Badge>;
}
