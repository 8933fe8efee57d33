import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { Page } from '../../../components/page';
import {
  cardClass,
  focusRing,
  primaryButtonClass,
  secondaryButtonClass,
} from '../../../components/ui-classes';
import { useFormatters } from '../../../lib/i18n-format';
import { PAYMENT_STEPS } from '../content';

const PALM_REGISTER_PATH = '/palm-register';

/**
 * The how-it-works demo (spec §2.6): five steps with their detail on hover or focus. Step 1, Start Demo
 * and Simulate Scan open palm registration; the other steps move the (display-only) progress; Reset
 * returns it to step 0.
 */
export function DemoRoute() {
  const { t } = useTranslation(['demo', 'marketing']);
  const format = useFormatters();
  const idBase = useId();
  const [step, setStep] = useState(0);
  const total = PAYMENT_STEPS.length;
  const progress = t('progress', { current: format.number(step + 1), total: format.number(total) });

  return (
    <Page title={t('title')} lead={t('lead')}>
      <div className="max-w-xl">
        <div className="flex items-center justify-between text-sm font-medium text-slate-800">
          <span id={`${idBase}-progress-label`}>{t('progressLabel')}</span>
          <span aria-hidden="true">{progress}</span>
        </div>
        <div
          role="progressbar"
          aria-labelledby={`${idBase}-progress-label`}
          aria-valuemin={1}
          aria-valuemax={total}
          aria-valuenow={step + 1}
          aria-valuetext={progress}
          className="mt-2 h-2.5 overflow-hidden rounded-full bg-slate-200"
        >
          <div
            className="h-full rounded-full bg-emerald-700 transition-[width] duration-300"
            style={{ width: `${((step + 1) / total) * 100}%` }}
          />
        </div>
      </div>

      <ol aria-label={t('stepsLabel')} className="mt-10 space-y-4">
        {PAYMENT_STEPS.map((id, index) => {
          const current = index === step;
          const detailId = `${idBase}-${id}-detail`;
          const className = `${focusRing} flex w-full gap-4 rounded-2xl border p-5 text-left shadow-sm transition-colors ${
            current
              ? 'border-emerald-600 bg-emerald-50'
              : 'border-slate-200 bg-white hover:border-emerald-500'
          }`;
          const content = (
            <>
              <span
                aria-hidden="true"
                className={`flex h-10 w-10 shrink-0 items-center justify-center rounded-full font-bold ${
                  current ? 'bg-emerald-700 text-white' : 'bg-slate-200 text-slate-800'
                }`}
              >
                {format.number(index + 1)}
              </span>
              <span className="block">
                <span className="sr-only">{t('stepNumber', { number: format.number(index + 1) })}: </span>
                <span className="block font-semibold text-slate-900">
                  {t(`marketing:steps.${id}.title`)}
                  {current ? <span className="sr-only"> ({t('current')})</span> : null}
                </span>
                <span className="mt-1 block text-slate-600">{t(`marketing:steps.${id}.body`)}</span>
              </span>
            </>
          );
          return (
            <li key={id} className="group relative">
              {index === 0 ? (
                <Link
                  to={PALM_REGISTER_PATH}
                  className={className}
                  aria-describedby={detailId}
                  aria-current={current ? 'step' : undefined}
                >
                  {content}
                </Link>
              ) : (
                <button
                  type="button"
                  className={className}
                  aria-describedby={detailId}
                  aria-current={current ? 'step' : undefined}
                  onClick={() => setStep(index)}
                >
                  {content}
                </button>
              )}
              <p
                id={detailId}
                role="tooltip"
                className="mt-2 hidden rounded-lg bg-slate-900 px-4 py-2 text-sm text-white group-focus-within:block group-hover:block sm:absolute sm:left-20 sm:top-full sm:z-10 sm:mt-1 sm:max-w-md sm:shadow-lg"
              >
                {t(`marketing:steps.${id}.detail`)}
              </p>
            </li>
          );
        })}
      </ol>
      <p className="mt-4 text-sm text-slate-600">{t('firstStepHint')}</p>

      <div className="mt-10 flex flex-wrap gap-3">
        <Link to={PALM_REGISTER_PATH} className={primaryButtonClass}>
          {t('start')}
        </Link>
        <Link to={PALM_REGISTER_PATH} className={secondaryButtonClass}>
          {t('simulate')}
        </Link>
        <button type="button" className={secondaryButtonClass} onClick={() => setStep(0)}>
          {t('reset')}
        </button>
      </div>

      <div className={`${cardClass} mt-12 flex flex-wrap items-center justify-between gap-4`}>
        <p className="font-semibold text-slate-900">{t('waitlistLead')}</p>
        <Link to="/applicants-register" className={primaryButtonClass}>
          {t('waitlist')}
        </Link>
      </div>
    </Page>
  );
}
