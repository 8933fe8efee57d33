import { MARKETING_FIGURES } from '@hasta/contracts/constants';
import { Link } from 'react-router';

import { Badge } from '../../../components/badge';
import { useDocumentTitle } from '../../../components/document-title';
import { cardClass, textLinkClass } from '../../../components/ui-classes';
import { HeroActions } from '../components/hero-actions';
import { COMING_SOON, HOW_IT_WORKS } from '../content';

const BENEFITS = [
  {
    title: 'Biometric identity',
    body: 'Your palm is your card: nothing to carry and nothing to forget.',
  },
  {
    title: 'INR wallet',
    body: 'Hold a balance in rupees, send money to anyone by phone or email, and receive with a palm scan.',
  },
  {
    title: 'Blockchain verified',
    body: 'Every consent and every payment is recorded on a blockchain, so it can be verified later.',
  },
] as const;

const FEATURE_PREVIEW = [
  { title: 'Palm scan', body: 'Pay at a counter in seconds with the palm of your hand.', soon: false },
  {
    title: 'Consent registry',
    body: 'See when and where your palm was used, and what you agreed to.',
    soon: false,
  },
  { title: 'Palm-to-QR', body: 'Turn a palm scan into a QR code any merchant can accept.', soon: true },
  {
    title: 'Offline mode',
    body: 'Keep paying when the network drops; payments settle once it is back.',
    soon: false,
  },
] as const;

const FIGURES = [
  { value: MARKETING_FIGURES.accuracy, label: 'biometric accuracy' },
  { value: 'Under 2 s', label: 'to verify a payment' },
  { value: '500+', label: 'data points per palm' },
  { value: MARKETING_FIGURES.patentClaims, label: 'patent claims filed' },
] as const;

function SectionHeading({ id, eyebrow, title }: { id: string; eyebrow: string; title: string }) {
  return (
    <div className="max-w-2xl">
      <p className="text-sm font-semibold uppercase tracking-wider text-emerald-700">{eyebrow}</p>
      <h2 id={id} className="mt-2 text-3xl font-bold tracking-tight text-slate-900">
        {title}
      </h2>
    </div>
  );
}

export function HomeRoute() {
  useDocumentTitle(null);
  return (
    <>
      <section className="bg-gradient-to-b from-emerald-50 to-white" aria-labelledby="home-title">
        <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 py-16 sm:px-6 lg:grid-cols-2 lg:px-8 lg:py-24">
          <div>
            <p className="text-sm font-semibold uppercase tracking-wider text-emerald-700">
              Palm payments for India
            </p>
            <h1
              id="home-title"
              className="mt-3 text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl"
            >
              Pay with the palm of your hand
            </h1>
            <p className="mt-5 max-w-xl text-lg text-slate-600">
              Hasta turns a palm scan into an irreversible hash, records your consent on a blockchain and pays
              from your rupee wallet. No card, no phone, no PIN to remember.
            </p>
            <div className="mt-8">
              <HeroActions />
            </div>
          </div>
          <dl className="grid grid-cols-2 gap-4">
            {FIGURES.map((figure) => (
              <div key={figure.label} className={cardClass}>
                <dt className="text-sm text-slate-600">{figure.label}</dt>
                <dd className="mt-1 text-3xl font-bold text-emerald-800">{figure.value}</dd>
              </div>
            ))}
          </dl>
        </div>
      </section>

      <section className="mx-auto max-w-7xl px-4 py-16 sm:px-6 lg:px-8" aria-labelledby="why-title">
        <SectionHeading id="why-title" eyebrow="Why choose Hasta" title="Payments that know it is you" />
        <ul className="mt-10 grid gap-6 md:grid-cols-3">
          {BENEFITS.map((benefit) => (
            <li key={benefit.title} className={cardClass}>
              <h3 className="text-lg font-semibold text-slate-900">{benefit.title}</h3>
              <p className="mt-2 text-slate-600">{benefit.body}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className="bg-slate-50" aria-labelledby="how-title">
        <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6 lg:px-8">
          <SectionHeading id="how-title" eyebrow="How it works" title="Five steps, under two seconds" />
          <ol className="mt-10 grid gap-6 md:grid-cols-5">
            {HOW_IT_WORKS.map((step, index) => (
              <li key={step.title} className={cardClass}>
                <span className="flex h-9 w-9 items-center justify-center rounded-full bg-emerald-700 font-bold text-white">
                  {index + 1}
                </span>
                <h3 className="mt-4 font-semibold text-slate-900">{step.title}</h3>
                <p className="mt-2 text-sm text-slate-600">{step.body}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section className="mx-auto max-w-7xl px-4 py-16 sm:px-6 lg:px-8" aria-labelledby="features-title">
        <SectionHeading id="features-title" eyebrow="Features" title="Built for everyday payments" />
        <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {FEATURE_PREVIEW.map((feature) => (
            <li key={feature.title} className={cardClass}>
              <div className="flex items-center justify-between gap-2">
                <h3 className="font-semibold text-slate-900">{feature.title}</h3>
                {feature.soon ? <Badge>{COMING_SOON}</Badge> : null}
              </div>
              <p className="mt-2 text-sm text-slate-600">{feature.body}</p>
            </li>
          ))}
        </ul>
        <p className="mt-8">
          <Link to="/features" className={textLinkClass}>
            See all features
          </Link>
        </p>
      </section>

      <section className="bg-emerald-900 text-white" aria-labelledby="patent-title">
        <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-16 sm:px-6 md:flex-row md:items-center md:justify-between lg:px-8">
          <div className="max-w-2xl">
            <h2 id="patent-title" className="text-3xl font-bold tracking-tight">
              Patent pending
            </h2>
            <p className="mt-3 text-emerald-50">
              {MARKETING_FIGURES.patentClaims} claims filed on the palm hashing, consent registry and wallet
              flow behind Hasta.
            </p>
          </div>
          <Link
            to="/technology"
            className="inline-flex items-center justify-center rounded-lg bg-white px-5 py-3 font-semibold text-emerald-900 shadow-sm hover:bg-emerald-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
          >
            Explore the technology
          </Link>
        </div>
      </section>
    </>
  );
}
