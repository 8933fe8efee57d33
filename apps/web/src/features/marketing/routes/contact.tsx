import { Page } from '../../../components/page';
import { cardClass } from '../../../components/ui-classes';

const VALUES = [
  { title: 'Mission', body: 'Make paying as simple as raising a hand, for everyone in India.' },
  { title: 'Vision', body: 'A country where identity and payment need nothing more than the person.' },
  { title: 'Values', body: 'Privacy by design, consent you can verify, and access for all.' },
] as const;

export function ContactRoute() {
  return (
    <Page title="About Hasta" lead="We are building palm-scan payments for India.">
      <ul className="grid gap-6 md:grid-cols-3">
        {VALUES.map((value) => (
          <li key={value.title} className={cardClass}>
            <h2 className="text-lg font-semibold text-slate-900">{value.title}</h2>
            <p className="mt-2 text-slate-600">{value.body}</p>
          </li>
        ))}
      </ul>
      <p className="mt-10 max-w-3xl text-slate-600">
        The general inquiry and vendor registration forms will open here in an upcoming update.
      </p>
    </Page>
  );
}
