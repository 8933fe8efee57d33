import { KIOSK_REGISTRATION_BONUS_POINTS } from '@hasta/contracts/constants';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { Badge } from '../../../components/badge';
import { Page } from '../../../components/page';
import {
  cardClass,
  primaryButtonClass,
  secondaryButtonClass,
  textLinkClass,
} from '../../../components/ui-classes';
import { useFormatters } from '../../../lib/i18n-format';
import { FaqAccordion } from '../components/faq-accordion';
import { FigureList } from '../components/figure-list';
import { KioskDialogs, useKioskDialog } from '../components/kiosk-dialogs';
import { TECHNOLOGY_FLOW } from '../content';
import { FIGURES } from '../figures';

const GOALS = ['simple', 'private', 'verifiable', 'inclusive'] as const;
const SECURITY = ['templates', 'replay', 'log', 'ledger', 'access'] as const;
const STACK = ['scanner', 'engine', 'chain', 'ledger', 'apps'] as const;

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="mt-14 first:mt-0">
      <h2 id={id} className="text-2xl font-bold text-slate-900">
        {title}
      </h2>
      <div className="mt-6">{children}</div>
    </section>
  );
}

function CardGrid({
  items,
  columns,
}: {
  items: ReadonlyArray<{ key: string; title: string; body: string }>;
  columns: string;
}) {
  return (
    <ul className={`grid gap-4 ${columns}`}>
      {items.map((item) => (
        <li key={item.key} className={cardClass}>
          <h3 className="font-semibold text-slate-900">{item.title}</h3>
          <p className="mt-2 text-sm text-slate-600">{item.body}</p>
        </li>
      ))}
    </ul>
  );
}

export function TechnologyRoute() {
  const { t } = useTranslation('technology');
  const format = useFormatters();
  const kioskDialog = useKioskDialog();
  const bonus = format.number(KIOSK_REGISTRATION_BONUS_POINTS);

  return (
    <Page title={t('title')} lead={t('lead')}>
      <Section id="goals-title" title={t('goals.title')}>
        <CardGrid
          columns="sm:grid-cols-2 lg:grid-cols-4"
          items={GOALS.map((goal) => ({
            key: goal,
            title: t(`goals.${goal}.title`),
            body: t(`goals.${goal}.body`),
          }))}
        />
      </Section>

      <Section id="flow-title" title={t('flow.title')}>
        <ol className="grid gap-4 md:grid-cols-5">
          {TECHNOLOGY_FLOW.map((step, index) => (
            <li key={step} className={cardClass}>
              <p className="text-sm font-semibold text-emerald-700">
                {t('flow.step', { number: format.number(index + 1) })}
              </p>
              <h3 className="mt-1 font-semibold text-slate-900">{t(`flow.${step}.title`)}</h3>
              <p className="mt-2 text-sm text-slate-600">{t(`flow.${step}.body`)}</p>
            </li>
          ))}
        </ol>
      </Section>

      <Section id="security-title" title={t('security.title')}>
        <CardGrid
          columns="sm:grid-cols-2 lg:grid-cols-3"
          items={SECURITY.map((item) => ({
            key: item,
            title: t(`security.${item}.title`),
            body: t(`security.${item}.body`),
          }))}
        />
      </Section>

      <Section id="stack-title" title={t('stack.title')}>
        <CardGrid
          columns="sm:grid-cols-2 lg:grid-cols-3"
          items={STACK.map((item) => ({
            key: item,
            title: t(`stack.${item}.title`),
            body: t(`stack.${item}.body`),
          }))}
        />
      </Section>

      <Section id="patent-title" title={t('patent.title')}>
        <div className={`${cardClass} space-y-6`}>
          <div className="flex flex-wrap items-center gap-3">
            <Badge>{t('patent.badge')}</Badge>
            <p className="text-slate-600">
              {t('patent.body', { claims: `${format.number(FIGURES.patentClaims)}+` })}
            </p>
          </div>
          <FigureList
            figures={['recognised', 'falseMatch', 'verification', 'dataPoints', 'privacy']}
            className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3"
          />
        </div>
      </Section>

      <Section id="network-title" title={t('network.title')}>
        <p className="max-w-3xl text-slate-600">{t('network.body')}</p>
        <div className="mt-6 grid gap-4 md:grid-cols-2">
          <div className={cardClass}>
            <h3 className="font-semibold text-slate-900">{t('network.kiosksTitle')}</h3>
            <p className="mt-2 text-sm text-slate-600">{t('network.kiosksBody', { points: bonus })}</p>
          </div>
          <div className={cardClass}>
            <h3 className="font-semibold text-slate-900">{t('network.posTitle')}</h3>
            <p className="mt-2 text-sm text-slate-600">{t('network.posBody')}</p>
          </div>
        </div>
        <div className="mt-6 flex flex-wrap gap-3">
          <button type="button" className={primaryButtonClass} onClick={kioskDialog.openPos}>
            {t('network.viewPos')}
          </button>
          <button type="button" className={secondaryButtonClass} onClick={kioskDialog.openHost}>
            {t('network.host')}
          </button>
          <button type="button" className={secondaryButtonClass} onClick={() => kioskDialog.openLocator()}>
            {t('network.locate')}
          </button>
        </div>
      </Section>

      <Section id="faq-title" title={t('faq.title')}>
        <FaqAccordion />
        <p className="mt-8">
          <Link to="/demo" className={textLinkClass}>
            {t('demoLink')}
          </Link>
        </p>
      </Section>

      <KioskDialogs dialog={kioskDialog.dialog} onClose={kioskDialog.close} />
    </Page>
  );
}
