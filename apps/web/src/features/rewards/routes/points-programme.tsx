import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { Page } from '../../../components/page';
import { cardClass, textLinkClass } from '../../../components/ui-classes';
import { useFormatters } from '../../../lib/i18n-format';
import { useProgramme } from '../components/use-programme';

/** /rewards/points: the Points Programme's rules (spec §1, §2.2, §9; issue 24), from the footer. */
export function PointsProgrammeRoute() {
  const { t } = useTranslation('rewards');
  const format = useFormatters();
  const programme = useProgramme();
  return (
    <Page title={t('points.title')} lead={t('points.lead')}>
      <div className="grid gap-6 md:grid-cols-2">
        <section aria-labelledby="points-earn" className={cardClass}>
          <h2 id="points-earn" className="text-xl font-semibold text-slate-900">
            {t('points.earnHeading')}
          </h2>
          <ul className="mt-3 list-disc space-y-2 pl-6 text-slate-700">
            {programme.tiers.map((tier) => (
              <li key={tier.tier}>
                {t('points.earnTier', {
                  tier: t(`tiers.${tier.tier}`),
                  points: format.number(tier.points_per_payment),
                })}
              </li>
            ))}
            <li>{t('points.earnKiosk', { points: format.number(programme.kiosk_bonus_points) })}</li>
            <li>{t('points.earnReferral', { points: format.number(programme.referral_bonus_points) })}</li>
          </ul>
        </section>
        <section aria-labelledby="points-redeem" className={cardClass}>
          <h2 id="points-redeem" className="text-xl font-semibold text-slate-900">
            {t('points.redeemHeading')}
          </h2>
          <ul className="mt-3 list-disc space-y-2 pl-6 text-slate-700">
            <li>
              {t('points.redeemRate', {
                rate: format.number(programme.points_per_rupee),
                rupee: format.rupees(1),
              })}
            </li>
            <li>{t('points.redeemMin', { min: format.number(programme.redeem_min_points) })}</li>
            <li>{t('points.redeemWhere')}</li>
            <li>{t('points.takeBack')}</li>
          </ul>
        </section>
      </div>
      <p className="mt-8 flex flex-wrap gap-6">
        <Link to="/rewards/stars" className={textLinkClass}>
          {t('points.starsLink')}
        </Link>
        <Link to="/user-dashboard" className={textLinkClass}>
          {t('points.dashboardLink')}
        </Link>
      </p>
    </Page>
  );
}
