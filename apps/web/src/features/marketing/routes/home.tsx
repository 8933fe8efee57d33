import { KIOSK_REGISTRATION_BONUS_POINTS } from '@hasta/contracts/constants';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import {
  cardClass,
  focusRing,
  primaryButtonClass,
  secondaryButtonClass,
  textLinkClass,
} from '../../../components/ui-classes';
import { useFormatters } from '../../../lib/i18n-format';
import { ComingSoonBadge } from '../components/coming-soon-badge';
import { FigureList } from '../components/figure-list';
import { HeroActions } from '../components/hero-actions';
import { KioskDialogs, useKioskDialog } from '../components/kiosk-dialogs';
import { SectionHeading } from '../components/section-heading';
import { PAYMENT_STEPS } from '../content';
import { FIGURES } from '../figures';
import { KIOSK_QUERY_MAX_LENGTH } from '../kiosk-search';

const BENEFITS = ['identity', 'wallet', 'blockchain'] as const;

/** Palm-to-QR and offline mode are not built yet: both are marked Coming Soon. */
const FEATURE_PREVIEW = [
  { id: 'palmScan', soon: false },
  { id: 'consentRegistry', soon: false },
  { id: 'palmToQr', soon: true },
  { id: 'offlineMode', soon: true },
] as const;

const TESTIMONIALS = ['priya', 'arjun'] as const;

const sectionClass = 'mx-auto max-w-7xl px-4 py-16 sm:px-6 lg:px-8';

/** Pincode search: opens the locator with the kiosks for that pincode (or city, or all when empty). */
function PincodeSearch({ onSearch }: { onSearch: (query: string) => void }) {
  const { t } = useTranslation('home');
  const inputId = useId();
  const [pincode, setPincode] = useState('');
  return (
    <form
      role="search"
      aria-label={t('kiosk.pincodeLabel')}
      onSubmit={(event) => {
        event.preventDefault();
        onSearch(pincode.trim());
      }}
    >
      <label htmlFor={inputId} className="block text-sm font-medium text-slate-800">
        {t('kiosk.pincodeLabel')}
      </label>
      <div className="mt-1 flex max-w-sm gap-2">
        <input
          id={inputId}
          type="text"
          inputMode="numeric"
          autoComplete="postal-code"
          value={pincode}
          maxLength={KIOSK_QUERY_MAX_LENGTH}
          placeholder={t('kiosk.pincodePlaceholder')}
          onChange={(event) => setPincode(event.target.value)}
          className={`block w-full rounded-lg border border-slate-400 bg-white px-3 py-2 text-slate-900 shadow-sm placeholder:text-slate-500 ${focusRing}`}
        />
        <button type="submit" className={primaryButtonClass}>
          {t('kiosk.search')}
        </button>
      </div>
    </form>
  );
}

export function HomeRoute() {
  const { t } = useTranslation(['home', 'marketing']);
  const format = useFormatters();
  const kioskDialog = useKioskDialog();

  return (
    <>
      <section className="bg-gradient-to-b from-emerald-50 to-white" aria-labelledby="home-title">
        <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 py-16 sm:px-6 lg:grid-cols-2 lg:px-8 lg:py-24">
          <div>
            <p className="text-sm font-semibold uppercase tracking-wider text-emerald-700">
              {t('hero.eyebrow')}
            </p>
            <h1
              id="home-title"
              className="mt-3 text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl"
            >
              {t('hero.title')}
            </h1>
            <p className="mt-5 max-w-xl text-lg text-slate-600">{t('hero.lead')}</p>
            <div className="mt-8">
              <HeroActions />
            </div>
          </div>
          <div>
            <h2 className="sr-only">{t('hero.figuresLabel')}</h2>
            <FigureList
              figures={['recognised', 'verification', 'dataPoints', 'patentClaims']}
              className="grid grid-cols-2 gap-4"
            />
          </div>
        </div>
      </section>

      <section className={sectionClass} aria-labelledby="why-title">
        <SectionHeading id="why-title" eyebrow={t('why.eyebrow')} title={t('why.title')} />
        <ul className="mt-10 grid gap-6 md:grid-cols-3">
          {BENEFITS.map((benefit) => (
            <li key={benefit} className={cardClass}>
              <h3 className="text-lg font-semibold text-slate-900">{t(`why.${benefit}.title`)}</h3>
              <p className="mt-2 text-slate-600">{t(`why.${benefit}.body`)}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className="bg-slate-50" aria-labelledby="how-title">
        <div className={sectionClass}>
          <SectionHeading id="how-title" eyebrow={t('how.eyebrow')} title={t('how.title')} />
          <ol className="mt-10 grid gap-6 md:grid-cols-5">
            {PAYMENT_STEPS.map((step, index) => (
              <li key={step} className={cardClass}>
                <span
                  aria-hidden="true"
                  className="flex h-9 w-9 items-center justify-center rounded-full bg-emerald-700 font-bold text-white"
                >
                  {format.number(index + 1)}
                </span>
                <h3 className="mt-4 font-semibold text-slate-900">{t(`marketing:steps.${step}.title`)}</h3>
                <p className="mt-2 text-sm text-slate-600">{t(`marketing:steps.${step}.body`)}</p>
              </li>
            ))}
          </ol>
          <p className="mt-8">
            <Link to="/demo" className={textLinkClass}>
              {t('how.more')}
            </Link>
          </p>
        </div>
      </section>

      <section className={sectionClass} aria-labelledby="features-title">
        <SectionHeading id="features-title" eyebrow={t('preview.eyebrow')} title={t('preview.title')} />
        <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {FEATURE_PREVIEW.map((feature) => (
            <li key={feature.id} className={cardClass}>
              <div className="flex flex-wrap items-center justify-between gap-2">
                <h3 className="font-semibold text-slate-900">{t(`preview.${feature.id}.title`)}</h3>
                {feature.soon ? <ComingSoonBadge /> : null}
              </div>
              <p className="mt-2 text-sm text-slate-600">{t(`preview.${feature.id}.body`)}</p>
            </li>
          ))}
        </ul>
        <p className="mt-8">
          <Link to="/features" className={textLinkClass}>
            {t('preview.all')}
          </Link>
        </p>
      </section>

      <section className="bg-slate-50" aria-labelledby="testimonials-title">
        <div className={sectionClass}>
          <SectionHeading
            id="testimonials-title"
            eyebrow={t('testimonials.eyebrow')}
            title={t('testimonials.title')}
          />
          <ul className="mt-10 grid gap-6 md:grid-cols-2">
            {TESTIMONIALS.map((person) => (
              <li key={person} className={cardClass}>
                <figure>
                  <blockquote className="text-lg text-slate-800">
                    <p>“{t(`testimonials.${person}.quote`)}”</p>
                  </blockquote>
                  <figcaption className="mt-4 text-sm">
                    <span className="font-semibold text-slate-900">{t(`testimonials.${person}.name`)}</span>
                    <span className="text-slate-600"> · {t(`testimonials.${person}.role`)}</span>
                  </figcaption>
                </figure>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="bg-emerald-900 text-white" aria-labelledby="patent-title">
        <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-16 sm:px-6 md:flex-row md:items-center md:justify-between lg:px-8">
          <div className="max-w-2xl">
            <h2 id="patent-title" className="text-3xl font-bold tracking-tight">
              {t('patent.title')}
            </h2>
            <p className="mt-3 text-emerald-50">
              {t('patent.body', { claims: `${format.number(FIGURES.patentClaims)}+` })}
            </p>
          </div>
          <Link
            to="/technology"
            className="inline-flex items-center justify-center rounded-lg bg-white px-5 py-3 font-semibold text-emerald-900 shadow-sm hover:bg-emerald-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
          >
            {t('patent.link')}
          </Link>
        </div>
      </section>

      <section className={sectionClass} aria-labelledby="kiosk-title">
        <SectionHeading id="kiosk-title" eyebrow={t('kiosk.eyebrow')} title={t('kiosk.title')} />
        <div className="mt-10 grid gap-6 lg:grid-cols-2">
          <div className={`${cardClass} space-y-6`}>
            <p className="text-slate-600">
              {t('kiosk.body', { points: format.number(KIOSK_REGISTRATION_BONUS_POINTS) })}
            </p>
            <button type="button" className={primaryButtonClass} onClick={() => kioskDialog.openLocator()}>
              {t('kiosk.locate')}
            </button>
            <PincodeSearch onSearch={(query) => kioskDialog.openLocator(query)} />
          </div>
          <div className={`${cardClass} space-y-4`}>
            <h3 className="text-lg font-semibold text-slate-900">{t('kiosk.posTitle')}</h3>
            <p className="text-slate-600">{t('kiosk.posBody')}</p>
            <button type="button" className={secondaryButtonClass} onClick={kioskDialog.openPos}>
              {t('kiosk.partner')}
            </button>
          </div>
        </div>
      </section>

      <KioskDialogs dialog={kioskDialog.dialog} onClose={kioskDialog.close} />
    </>
  );
}
