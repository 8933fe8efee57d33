import { useTranslation } from 'react-i18next';

import { cardClass } from '../../../components/ui-classes';
import { useFormatters } from '../../../lib/i18n-format';
import { FIGURES, decisionUnderSeconds, falseMatchOneIn } from '../figures';
import type { FigureKey } from '../figures';

/** The figures measured by `npm run bench:palm`, which the note under the list qualifies. */
const PALM_FIGURES: ReadonlySet<FigureKey> = new Set([
  'recognised',
  'falseMatch',
  'verification',
  'dataPoints',
]);

/** The headline figures (spec §1), as measured by `npm run bench:palm`, formatted for the page's language. */
export function FigureList({ figures, className }: { figures: readonly FigureKey[]; className: string }) {
  const { t } = useTranslation('marketing');
  const format = useFormatters();
  const values: Record<FigureKey, string> = {
    recognised: format.percent(FIGURES.recognisedFraction),
    falseMatch: t('figures.falseMatchValue', { scans: format.number(falseMatchOneIn()) }),
    verification: t('figures.verificationValue', { seconds: format.number(decisionUnderSeconds()) }),
    dataPoints: format.number(FIGURES.dataPoints),
    patentClaims: `${format.number(FIGURES.patentClaims)}+`,
    privacy: format.percent(FIGURES.privacyFraction),
  };
  return (
    <>
      <dl className={className}>
        {figures.map((key) => (
          <div key={key} className={`${cardClass} flex flex-col-reverse`}>
            <dt className="mt-1 text-sm text-slate-600">{t(`figures.${key}`)}</dt>
            <dd className="text-3xl font-bold text-emerald-800">{values[key]}</dd>
          </div>
        ))}
      </dl>
      {figures.some((key) => PALM_FIGURES.has(key)) && (
        <p className="mt-3 text-xs text-slate-500">{t('figures.note')}</p>
      )}
    </>
  );
}
