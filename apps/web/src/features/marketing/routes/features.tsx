import {
  KIOSK_REGISTRATION_BONUS_POINTS,
  MARKETING_FIGURES,
  POINTS_PER_SCAN,
  REWARD_TIERS,
  TIER_THRESHOLDS_RUPEES,
} from '@hasta/contracts/constants';
import { useReducedMotion } from 'motion/react';
import type { MouseEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { Page } from '../../../components/page';
import {
  cardClass,
  focusRing,
  primaryButtonClass,
  secondaryButtonClass,
  textLinkClass,
} from '../../../components/ui-classes';
import { useFormatters } from '../../../lib/i18n-format';
import { ComingSoonBadge } from '../components/coming-soon-badge';
import { FEATURES, OFFLINE_MOCK_QUEUED_SINCE, PARTNER_INTEGRATIONS, UTILITY_CATEGORIES } from '../content';
import type { FeatureId } from '../content';

const sectionId = (anchor: string) => `feature-${anchor}`;
const headingId = (anchor: string) => `feature-${anchor}-title`;

function TierCards() {
  const { t } = useTranslation('features');
  const format = useFormatters();
  return (
    <ul className="mt-6 grid gap-4 sm:grid-cols-3">
      {REWARD_TIERS.map((tier) => (
        <li key={tier} className={cardClass}>
          <h3 className="text-lg font-semibold text-slate-900">{t(`tiers.names.${tier}`)}</h3>
          <p className="mt-2 text-sm text-slate-600">
            {t('tiers.from', { amount: format.rupees(TIER_THRESHOLDS_RUPEES[tier]) })}
          </p>
          <p className="mt-1 font-semibold text-emerald-800">
            {t('tiers.perScan', { points: format.number(POINTS_PER_SCAN[tier]) })}
          </p>
        </li>
      ))}
    </ul>
  );
}

function UtilityCategories() {
  const { t } = useTranslation('features');
  return (
    <div className="mt-6">
      <h3 className="font-semibold text-slate-900">{t('utility.categoriesLabel')}</h3>
      <ul className="mt-3 flex flex-wrap gap-2">
        {UTILITY_CATEGORIES.map((category) => (
          <li key={category} className="rounded-full bg-slate-100 px-3 py-1 text-sm text-slate-800">
            {t(`utility.categories.${category}`)}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The static offline-mode mock (spec §2.5): 47 pending transactions worth ₹12,450. */
function OfflineMock() {
  const { t } = useTranslation('features');
  const format = useFormatters();
  return (
    <figure className="mt-6 max-w-md rounded-2xl border border-slate-300 bg-slate-900 p-5 text-white shadow-lg">
      <p className="flex items-center gap-2 text-sm font-semibold text-amber-300">
        <span aria-hidden="true" className="h-2.5 w-2.5 rounded-full bg-amber-300" />
        {t('offlineMock.status')}
      </p>
      <dl className="mt-4 grid grid-cols-2 gap-4">
        <div>
          <dt className="text-xs text-slate-300">{t('offlineMock.pending')}</dt>
          <dd className="text-2xl font-bold">
            {format.number(MARKETING_FIGURES.offlinePendingTransactions)}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-slate-300">{t('offlineMock.amount')}</dt>
          <dd className="text-2xl font-bold">{format.rupees(MARKETING_FIGURES.offlinePendingRupees)}</dd>
        </div>
        <div className="col-span-2">
          <dt className="text-xs text-slate-300">{t('offlineMock.since')}</dt>
          <dd className="text-sm">{format.dateTime(OFFLINE_MOCK_QUEUED_SINCE)}</dd>
        </div>
      </dl>
      <p className="mt-4 text-sm text-slate-200">{t('offlineMock.note')}</p>
      <figcaption className="mt-3 border-t border-slate-700 pt-3 text-xs text-slate-300">
        {t('offlineMock.caption')}
      </figcaption>
    </figure>
  );
}

/** The rewards programmes' own pages (issue 24), linked from their feature sections. */
function ProgrammeLink({ to, label }: { to: string; label: string }) {
  return (
    <p className="mt-4">
      <Link to={to} className={textLinkClass}>
        {label}
      </Link>
    </p>
  );
}

function FeatureExtra({ id }: { id: FeatureId }): ReactNode {
  const { t } = useTranslation('features');
  if (id === 'tiers')
    return (
      <>
        <TierCards />
        <ProgrammeLink to="/rewards/stars" label={t('tiers.rulesLink')} />
      </>
    );
  if (id === 'points') return <ProgrammeLink to="/rewards/points" label={t('points.rulesLink')} />;
  if (id === 'utility') return <UtilityCategories />;
  if (id === 'offline') return <OfflineMock />;
  return null;
}

export function FeaturesRoute() {
  const { t } = useTranslation('features');
  const format = useFormatters();
  const reduceMotion = useReducedMotion() === true;

  /** A card scrolls to its section (smoothly, unless motion is reduced) and focuses its heading. */
  function goToSection(event: MouseEvent<HTMLAnchorElement>, anchor: string): void {
    const section = document.getElementById(sectionId(anchor));
    const heading = document.getElementById(headingId(anchor));
    if (section === null || heading === null) return;
    event.preventDefault();
    section.scrollIntoView({ behavior: reduceMotion ? 'auto' : 'smooth', block: 'start' });
    heading.focus({ preventScroll: true });
  }

  function body(id: FeatureId): string {
    if (id !== 'points') return t(`${id}.body`);
    const perScan = Object.values(POINTS_PER_SCAN);
    return t('points.body', {
      min: format.number(Math.min(...perScan)),
      max: format.number(Math.max(...perScan)),
      bonus: format.number(KIOSK_REGISTRATION_BONUS_POINTS),
    });
  }

  return (
    <Page title={t('title')} lead={t('lead')}>
      <nav aria-label={t('overview')}>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {FEATURES.map((feature) => (
            <li key={feature.id}>
              <a
                href={`#${sectionId(feature.anchor)}`}
                onClick={(event) => goToSection(event, feature.anchor)}
                className={`${cardClass} ${focusRing} block h-full transition-colors hover:border-emerald-600 hover:bg-emerald-50/40`}
              >
                <span className="flex flex-wrap items-center justify-between gap-2">
                  <span className="text-lg font-semibold text-slate-900">{t(`${feature.id}.title`)}</span>
                  {feature.soon ? <ComingSoonBadge /> : null}
                </span>
                <span className="mt-2 block text-slate-600">{t(`${feature.id}.summary`)}</span>
              </a>
            </li>
          ))}
        </ul>
      </nav>

      <div className="mt-16 space-y-16">
        {FEATURES.map((feature) => (
          <section
            key={feature.id}
            id={sectionId(feature.anchor)}
            aria-labelledby={headingId(feature.anchor)}
            className="border-t border-slate-200 pt-10"
          >
            <div className="flex flex-wrap items-center gap-3">
              <h2
                id={headingId(feature.anchor)}
                tabIndex={-1}
                className="text-2xl font-bold text-slate-900 focus:outline-none"
              >
                {t(`${feature.id}.title`)}
              </h2>
              {feature.soon ? <ComingSoonBadge /> : null}
            </div>
            <p className="mt-3 max-w-3xl text-slate-600">{body(feature.id)}</p>
            <FeatureExtra id={feature.id} />
          </section>
        ))}

        <section aria-labelledby="partners-title" className="border-t border-slate-200 pt-10">
          <h2 id="partners-title" className="text-2xl font-bold text-slate-900">
            {t('partners.title')}
          </h2>
          <p className="mt-3 text-slate-600">{t('partners.lead')}</p>
          <ul className="mt-6 grid gap-4 sm:grid-cols-2">
            {PARTNER_INTEGRATIONS.map((partner) => (
              <li key={partner} className={cardClass}>
                <h3 className="font-semibold text-slate-900">{t(`partners.${partner}.title`)}</h3>
                <p className="mt-2 text-sm text-slate-600">{t(`partners.${partner}.body`)}</p>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="cta-title" className="rounded-2xl bg-emerald-50 p-8">
          <h2 id="cta-title" className="text-2xl font-bold text-slate-900">
            {t('cta.title')}
          </h2>
          <p className="mt-3 max-w-2xl text-slate-700">{t('cta.body')}</p>
          <div className="mt-6 flex flex-wrap gap-3">
            <Link to="/demo" className={primaryButtonClass}>
              {t('cta.demo')}
            </Link>
            <Link to="/applicants-register" className={secondaryButtonClass}>
              {t('cta.waitlist')}
            </Link>
          </div>
        </section>
      </div>
    </Page>
  );
}
