import type { RewardsOverview } from '@hasta/contracts/rewards';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import {
  cardClass,
  disabledClass,
  inputClass,
  labelClass,
  primaryButtonClass,
  secondaryButtonClass,
  textLinkClass,
} from '../../../components/ui-classes';
import { errorMessage } from '../../../lib/api-client';
import { useFormatters } from '../../../lib/i18n-format';
import { fetchRewards, recordShare, redeemPoints, rewardsQueryKey } from '../api/rewards';

export interface RewardsTabProps {
  /** After a redemption: the wallet's balance and history changed. */
  onRedeemed: () => void;
}

/**
 * The dashboard's Rewards tab (spec §2.11, from the server; issue 24): the points balance, the tier with its
 * progress, the latest points, the referral link with its counts, and Redeem.
 */
export function RewardsTab({ onRedeemed }: RewardsTabProps) {
  const { t } = useTranslation('rewards');
  const rewards = useQuery({
    queryKey: rewardsQueryKey,
    queryFn: ({ signal }) => fetchRewards(signal),
    refetchOnMount: 'always',
  });
  return (
    <section aria-labelledby="rewards-heading" className="space-y-8">
      <h2 id="rewards-heading" className="text-xl font-semibold text-slate-900">
        {t('tab.heading')}
      </h2>
      {rewards.isPending ? (
        <p role="status" className="text-slate-600">
          {t('tab.loading')}
        </p>
      ) : null}
      {rewards.isError ? (
        <div role="alert" className="flex flex-wrap items-center gap-4 rounded-lg bg-red-50 px-4 py-3">
          <p className="font-medium text-red-800">{errorMessage(rewards.error, t('tab.failed'))}</p>
          <button type="button" className={secondaryButtonClass} onClick={() => void rewards.refetch()}>
            {t('tab.retry')}
          </button>
        </div>
      ) : null}
      {rewards.data === undefined ? null : (
        <>
          <Standing rewards={rewards.data} />
          <Redeem rewards={rewards.data} onRedeemed={onRedeemed} />
          <Referral rewards={rewards.data} />
          <Recent rewards={rewards.data} />
        </>
      )}
    </section>
  );
}

function Standing({ rewards }: { rewards: RewardsOverview }) {
  const { t } = useTranslation('rewards');
  const format = useFormatters();
  const months = rewards.programme.tier_window_months;
  const next = rewards.next_tier;
  return (
    <div className={cardClass}>
      <dl className="grid gap-4 sm:grid-cols-2">
        <div>
          <dt className="text-sm text-slate-600">{t('tab.points')}</dt>
          <dd className="text-3xl font-bold text-slate-900" data-testid="points-balance">
            {format.number(rewards.points)}
          </dd>
        </div>
        <div>
          <dt className="text-sm text-slate-600">{t('tab.tier')}</dt>
          <dd className="text-3xl font-bold text-slate-900" data-testid="tier">
            {rewards.tier === null ? t('tab.noTier') : t(`tiers.${rewards.tier}`)}
          </dd>
        </div>
      </dl>
      <p className="mt-4 text-sm text-slate-700">
        {t('tab.spend', { amount: format.money(rewards.spend), months: format.number(months) })}
      </p>
      {next === null ? (
        <p className="mt-2 text-sm font-medium text-emerald-800">{t('tab.topTier')}</p>
      ) : (
        <div className="mt-3">
          <progress
            className="h-2 w-full accent-emerald-700"
            max={100}
            value={next.progress_percent}
            aria-label={t('tab.progressLabel', { tier: t(`tiers.${next.tier}`) })}
          />
          <p className="mt-1 text-sm text-slate-700">
            {t('tab.toNext', {
              amount: format.money(next.remaining),
              tier: t(`tiers.${next.tier}`),
            })}
          </p>
        </div>
      )}
      <p className="mt-3 text-sm text-slate-700">
        {rewards.points_per_payment > 0
          ? t('tab.perPayment', { points: format.number(rewards.points_per_payment) })
          : t('tab.perPaymentNone')}
      </p>
      <p className="mt-3 flex flex-wrap gap-4 text-sm">
        <Link to="/rewards/points" className={textLinkClass}>
          {t('tab.rulesLink')}
        </Link>
      </p>
    </div>
  );
}

function Redeem({ rewards, onRedeemed }: { rewards: RewardsOverview; onRedeemed: () => void }) {
  const { t } = useTranslation('rewards');
  const format = useFormatters();
  const queryClient = useQueryClient();
  const fieldId = useId();
  const { points_per_rupee: rate, redeem_min_points: min } = rewards.programme;
  const [points, setPoints] = useState(String(rewards.redeemable_points || min));
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const submit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setDone(null);
    setProblem(null);
    try {
      const result = await redeemPoints(Number(points), crypto.randomUUID());
      setDone(
        t('redeem.done', {
          points: format.number(result.points_redeemed),
          amount: format.money(result.amount),
        }),
      );
      await queryClient.invalidateQueries({ queryKey: rewardsQueryKey });
      onRedeemed();
    } catch (error) {
      setProblem(errorMessage(error, t('redeem.failed')));
    } finally {
      setBusy(false);
    }
  };

  const enough = rewards.points >= min;
  return (
    <div className={cardClass}>
      <h3 className="text-lg font-semibold text-slate-900">{t('redeem.heading')}</h3>
      <p className="mt-1 text-sm text-slate-700">
        {t('redeem.rule', {
          rate: format.number(rate),
          rupee: format.rupees(1),
          min: format.number(min),
        })}
      </p>
      {enough ? (
        <form className="mt-4 flex flex-wrap items-end gap-3" onSubmit={(event) => void submit(event)}>
          <div>
            <label htmlFor={fieldId} className={labelClass}>
              {t('redeem.field')}
            </label>
            <input
              id={fieldId}
              className={inputClass}
              type="number"
              inputMode="numeric"
              min={min}
              step={rate}
              max={rewards.points}
              value={points}
              onChange={(event) => setPoints(event.target.value)}
              required
            />
          </div>
          <button type="submit" className={`${primaryButtonClass} ${disabledClass}`} disabled={busy}>
            {busy ? t('redeem.submitting') : t('redeem.submit')}
          </button>
        </form>
      ) : (
        <p className="mt-3 text-sm text-slate-700">{t('redeem.notEnough', { min: format.number(min) })}</p>
      )}
      {done === null ? null : (
        <p role="status" className="mt-3 text-sm font-medium text-emerald-800">
          {done}{' '}
          <Link to="/history" className={textLinkClass}>
            {t('redeem.history')}
          </Link>
        </p>
      )}
      {problem === null ? null : (
        <p role="alert" className="mt-3 text-sm font-medium text-red-800">
          {problem}
        </p>
      )}
    </div>
  );
}

function Referral({ rewards }: { rewards: RewardsOverview }) {
  const { t } = useTranslation('rewards');
  const format = useFormatters();
  const [sent, setSent] = useState(rewards.referral.sent);
  const [copied, setCopied] = useState(false);
  const link = `${window.location.origin}${rewards.referral.link}`;
  const canShare = typeof navigator.share === 'function';

  const counted = async (): Promise<void> => {
    try {
      setSent((await recordShare()).sent);
    } catch {
      // the count is a convenience; the link was shared all the same
    }
  };
  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
      await counted();
    } catch {
      setCopied(false);
    }
  };
  const share = async (): Promise<void> => {
    try {
      await navigator.share({ title: t('referral.heading'), text: t('referral.shareText'), url: link });
      await counted();
    } catch {
      // dismissed
    }
  };

  return (
    <div className={cardClass}>
      <h3 className="text-lg font-semibold text-slate-900">{t('referral.heading')}</h3>
      <p className="mt-1 text-sm text-slate-700">
        {t('referral.lead', { points: format.number(rewards.programme.referral_bonus_points) })}
      </p>
      <dl className="mt-4 grid gap-2 text-sm sm:grid-cols-[auto_1fr] sm:gap-x-4">
        <dt className="text-slate-600">{t('referral.code')}</dt>
        <dd className="font-mono font-semibold text-slate-900" data-testid="referral-code" translate="no">
          {rewards.referral.code}
        </dd>
        <dt className="text-slate-600">{t('referral.link')}</dt>
        <dd className="font-mono break-all text-slate-900" translate="no">
          {link}
        </dd>
      </dl>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <button type="button" className={secondaryButtonClass} onClick={() => void copy()}>
          {t('referral.copy')}
        </button>
        {canShare ? (
          <button type="button" className={secondaryButtonClass} onClick={() => void share()}>
            {t('referral.share')}
          </button>
        ) : null}
        {copied ? (
          <span role="status" className="text-sm font-medium text-emerald-800">
            {t('referral.copied')}
          </span>
        ) : null}
      </div>
      <dl className="mt-4 grid grid-cols-3 gap-4">
        {(
          [
            ['sent', sent],
            ['joined', rewards.referral.joined],
            ['rewarded', rewards.referral.rewarded],
          ] as const
        ).map(([key, count]) => (
          <div key={key}>
            <dt className="text-sm text-slate-600">{t(`referral.${key}`)}</dt>
            <dd className="text-2xl font-bold text-slate-900" data-testid={`referrals-${key}`}>
              {format.number(count)}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

function Recent({ rewards }: { rewards: RewardsOverview }) {
  const { t } = useTranslation('rewards');
  const format = useFormatters();
  return (
    <div className={cardClass}>
      <h3 className="text-lg font-semibold text-slate-900">{t('recent.heading')}</h3>
      {rewards.recent.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">{t('recent.empty')}</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-100" data-testid="recent-points">
          {rewards.recent.map((entry) => (
            <li key={entry.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <span className="text-slate-800">{t(`recent.reasons.${entry.reason}`)}</span>
              <span className="text-sm text-slate-600">{format.dateTime(new Date(entry.created_at))}</span>
              <span className={`font-semibold ${entry.points > 0 ? 'text-emerald-800' : 'text-slate-800'}`}>
                {entry.points > 0 ? '+' : '−'}
                {format.number(Math.abs(entry.points))}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
