import { REWARD_TIERS } from '@hasta/contracts/constants';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

import { cardClass } from '../../../components/ui-classes';
import { errorMessage } from '../../../lib/api-client';
import { useFormatters } from '../../../lib/i18n-format';
import { fetchRewardsSummary, rewardsSummaryQueryKey } from '../api/rewards-admin';

/** The rewards programme's totals for the admin (issue 24), above the Users list. */
export function RewardsSummary() {
  const { t } = useTranslation('rewards');
  const format = useFormatters();
  const headingId = useId();
  const summary = useQuery({
    queryKey: rewardsSummaryQueryKey,
    queryFn: ({ signal }) => fetchRewardsSummary(signal),
    refetchOnMount: 'always',
  });
  const data = summary.data;
  return (
    <section aria-labelledby={headingId} className={cardClass}>
      <h3 id={headingId} className="text-lg font-semibold text-slate-900">
        {t('admin.summaryHeading')}
      </h3>
      {summary.isPending ? (
        <p role="status" className="mt-2 text-sm text-slate-600">
          {t('admin.loading')}
        </p>
      ) : null}
      {summary.isError ? (
        <p role="alert" className="mt-2 text-sm font-medium text-red-800">
          {errorMessage(summary.error, t('admin.failed'))}
        </p>
      ) : null}
      {data === undefined ? null : (
        <dl className="mt-3 grid gap-4 sm:grid-cols-3 lg:grid-cols-5" data-testid="rewards-summary">
          {(
            [
              ['awarded', format.number(data.points_awarded)],
              ['redeemed', format.number(data.points_redeemed)],
              ['takenBack', format.number(data.points_taken_back)],
              ['outstanding', format.number(data.points_outstanding)],
              ['rupeesPaid', format.money(data.rupees_paid)],
            ] as const
          ).map(([key, value]) => (
            <div key={key}>
              <dt className="text-sm text-slate-600">{t(`admin.${key}`)}</dt>
              <dd className="text-xl font-bold text-slate-900">{value}</dd>
            </div>
          ))}
          {REWARD_TIERS.map((tier) => (
            <div key={tier}>
              <dt className="text-sm text-slate-600">{t('admin.members', { tier: t(`tiers.${tier}`) })}</dt>
              <dd className="text-xl font-bold text-slate-900">{format.number(data.members[tier])}</dd>
            </div>
          ))}
          <div>
            <dt className="text-sm text-slate-600">{t('admin.referrals')}</dt>
            <dd className="text-xl font-bold text-slate-900">
              {format.number(data.referrals_joined)} / {format.number(data.referrals_rewarded)}
            </dd>
          </div>
        </dl>
      )}
    </section>
  );
}
