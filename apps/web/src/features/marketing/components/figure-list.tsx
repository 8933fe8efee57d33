import { useTranslation } from 'react-i18next';

import { cardClass } from '../../../components/ui-classes';
import { useFormatters } from '../../../lib/i18n-format';
import { FIGURES } from '../figures';

type FigureKey = 'accuracy' | 'verification' | 'dataPoints' | 'patentClaims' | 'privacy';

/** The headline figures (spec §1), formatted for the page's language. */
export function FigureList({ figures, className }: { figures: readonly FigureKey[]; className: string }) {
  const { t } = useTranslation('marketing');
  const format = useFormatters();
  const values: Record<FigureKey, string> = {
    accuracy: format.percent(FIGURES.accuracyFraction),
    verification: t('figures.verificationValue', { seconds: format.number(FIGURES.verificationSeconds) }),
    dataPoints: `${format.number(FIGURES.dataPoints)}+`,
    patentClaims: `${format.number(FIGURES.patentClaims)}+`,
    privacy: format.percent(FIGURES.privacyFraction),
  };
  return (
    <dl className={className}>
      {figures.map((key) => (
        <div key={key} className={`${cardClass} flex flex-col-reverse`}>
          <dt className="mt-1 text-sm text-slate-600">{t(`figures.${key}`)}</dt>
          <dd className="text-3xl font-bold text-emerald-800">{values[key]}</dd>
        </div>
      ))}
    </dl>
  );
}
