import { Link } from 'react-router';

import { Page } from '../../../components/page';
import { cardClass, textLinkClass } from '../../../components/ui-classes';

const FLOW = [
  { title: 'Palm scan', body: 'An infrared sensor captures the vein pattern of the palm.' },
  { title: 'Hash engine', body: 'More than 500 geometric data points become an irreversible hash.' },
  { title: 'Consent contract', body: 'A smart contract records that you agreed to this payment.' },
  { title: 'Blockchain mint', body: 'The payment is minted on chain with its own transaction id.' },
  { title: 'Wallet execution', body: 'The amount moves between INR wallets.' },
] as const;

export function TechnologyRoute() {
  return (
    <Page
      title="The Technology Behind Hasta"
      lead="A palm is scanned, hashed and checked in under two seconds. The original biometric image is never stored."
    >
      <section aria-labelledby="flow-title">
        <h2 id="flow-title" className="text-2xl font-bold text-slate-900">
          Technology flow
        </h2>
        <ol className="mt-6 grid gap-4 md:grid-cols-5">
          {FLOW.map((step, index) => (
            <li key={step.title} className={cardClass}>
              <p className="text-sm font-semibold text-emerald-700">Step {index + 1}</p>
              <h3 className="mt-1 font-semibold text-slate-900">{step.title}</h3>
              <p className="mt-2 text-sm text-slate-600">{step.body}</p>
            </li>
          ))}
        </ol>
      </section>
      <section aria-labelledby="patent-title" className="mt-12">
        <h2 id="patent-title" className="text-2xl font-bold text-slate-900">
          Patent status
        </h2>
        <p className="mt-3 max-w-3xl text-slate-600">
          Patent pending, with 12+ claims filed. The security framework, technology stack, kiosk and POS
          network and a full FAQ will be published on this page.
        </p>
        <p className="mt-6">
          <Link to="/demo" className={textLinkClass}>
            See how a payment works
          </Link>
        </p>
      </section>
    </Page>
  );
}
