import { Link } from 'react-router';

import { Page } from '../../../components/page';
import { cardClass, primaryButtonClass, secondaryButtonClass } from '../../../components/ui-classes';
import { HOW_IT_WORKS } from '../content';

export function DemoRoute() {
  return (
    <Page title="How It Works" lead="Five steps take a palm scan to a settled payment.">
      <ol className="space-y-4">
        {HOW_IT_WORKS.map((step, index) => (
          <li key={step.title} className={`${cardClass} flex gap-4`}>
            <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-emerald-700 font-bold text-white">
              {index + 1}
            </span>
            <div>
              <h2 className="font-semibold text-slate-900">{step.title}</h2>
              <p className="mt-1 text-slate-600">{step.body}</p>
            </div>
          </li>
        ))}
      </ol>
      <div className="mt-10 flex flex-wrap gap-3">
        <Link to="/palm-register" className={primaryButtonClass}>
          Start Demo
        </Link>
        <Link to="/applicants-register" className={secondaryButtonClass}>
          Join Waitlist
        </Link>
      </div>
    </Page>
  );
}
