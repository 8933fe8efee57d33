import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { Page } from '../../../components/page';
import { cardClass, textLinkClass } from '../../../components/ui-classes';
import { useFormatters } from '../../../lib/i18n-format';
import { useProgramme } from '../components/use-programme';

/** /rewards/stars: the Stars (tier) Programme's rules (spec §2.2, §2.5, §9; issue 24), from the footer. */
export function StarsProgrammeRoute() {
  const { t } = useTranslation('rewards');
  const format = useFormatters();
  const programme = useProgramme();
  const months = format.number(programme.tier_window_months);
  const rupees = (text: string) => format.money(text, { paise: 'when-any' });
  const lowest = programme.tiers[0];
  return (
    <Page title={t('stars.title')} lead={t('stars.lead', { months })}>
      <ul className="grid gap-4 sm:grid-cols-3">
        {programme.tiers.map((tier) => (
          <li key={tier.tier} className={cardClass}>
            <h2 className="text-lg font-semibold text-slate-900">{t(`tiers.${tier.tier}`)}</h2>
            <p className="mt-2 text-sm text-slate-600">
              {t('stars.from', { amount: rupees(tier.from), months })}
            </p>
            <p className="mt-1 font-semibold text-emerald-800">
              {t('stars.perPayment', { points: format.number(tier.points_per_payment) })}
            </p>
          </li>
        ))}
      </ul>
      <section aria-labelledby="stars-rules" className="mt-10">
        <h2 id="stars-rules" className="text-xl font-semibold text-slate-900">
          {t('stars.rulesHeading')}
        </h2>
        <ul className="mt-3 list-disc space-y-2 pl-6 text-slate-700">
          <li>{t('stars.ruleCounts')}</li>
          <li>{t('stars.ruleRecomputed')}</li>
          {lowest === undefined ? null : <li>{t('stars.ruleBelow', { amount: rupees(lowest.from) })}</li>}
        </ul>
        <p className="mt-6">
          <Link to="/rewards/points" className={textLinkClass}>
            {t('stars.pointsLink')}
          </Link>
        </p>
      </section>
    </Page>
  );
}
