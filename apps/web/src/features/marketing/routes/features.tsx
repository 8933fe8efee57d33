import { Badge } from '../../../components/badge';
import { Page } from '../../../components/page';
import { cardClass } from '../../../components/ui-classes';
import { COMING_SOON } from '../content';

/** The ten features of spec §2.5; four are marked Coming Soon. */
const FEATURES = [
  { title: 'Palm scan', body: 'Pay by holding your palm over a scanner.', soon: false },
  { title: 'INR wallets', body: 'A rupee balance you can top up, send and receive.', soon: false },
  { title: 'Palm-to-QR', body: 'Turn a palm scan into a QR code any merchant can accept.', soon: false },
  {
    title: 'Offline buffer mode',
    body: 'Payments queue on the device and settle when back online.',
    soon: true,
  },
  { title: 'Utility bill pay', body: 'Pay electricity, water and phone bills with your palm.', soon: true },
  { title: 'SIM-linked login', body: 'Log in with the SIM in your phone instead of a password.', soon: true },
  { title: 'Points', body: 'Earn 5 to 20 points for every palm payment.', soon: false },
  { title: 'Stars tiers', body: 'Silver, Gold and Platinum tiers unlock as you spend.', soon: false },
  { title: 'Consent logging', body: 'Each use of your palm is logged with your consent.', soon: false },
  { title: 'UPI integration', body: 'Pay to and from any UPI address.', soon: true },
] as const;

export function FeaturesRoute() {
  return (
    <Page title="Features" lead="Everything Hasta does today, and what is coming next.">
      <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {FEATURES.map((feature) => (
          <li key={feature.title} className={cardClass}>
            <div className="flex items-center justify-between gap-2">
              <h2 className="text-lg font-semibold text-slate-900">{feature.title}</h2>
              {feature.soon ? <Badge>{COMING_SOON}</Badge> : null}
            </div>
            <p className="mt-2 text-slate-600">{feature.body}</p>
          </li>
        ))}
      </ul>
    </Page>
  );
}
