import { PRODUCT_NAME } from '@hasta/contracts/constants';
import { comingSoonTitle, messages } from '@hasta/contracts/messages';
import { useState } from 'react';
import { Link } from 'react-router';

import { Logo } from './logo';
import { Modal } from './modal';
import { focusRing } from './ui-classes';

/** The programmes announced in the footer (spec §2.2); each opens a Coming Soon modal. */
const PROGRAMMES = ['Stars Programme', 'Points Programme'] as const;
type Programme = (typeof PROGRAMMES)[number];

const COPYRIGHT_YEAR = 2025;

const footerLinkClass = `${focusRing} rounded-sm text-slate-300 hover:text-white`;

const PRODUCT_LINKS = [
  { to: '/technology', label: 'Technology' },
  { to: '/features', label: 'Features' },
  { to: '/demo', label: 'Demo' },
  { to: '/applicants-register', label: 'Join the Waitlist' },
] as const;

const COMPANY_LINKS = [
  { to: '/contact', label: 'About / Contact' },
  { to: '/privacy', label: 'Privacy' },
  { to: '/terms', label: 'Terms' },
] as const;

function LinkColumn({
  heading,
  links,
}: {
  heading: string;
  links: ReadonlyArray<{ to: string; label: string }>;
}) {
  return (
    <div>
      <h2 className="text-sm font-semibold text-white">{heading}</h2>
      <ul className="mt-4 space-y-3 text-sm">
        {links.map((link) => (
          <li key={link.to}>
            <Link to={link.to} className={footerLinkClass}>
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function Footer() {
  const [programme, setProgramme] = useState<Programme | null>(null);
  // Keeps the title while the dialog closes.
  const [lastProgramme, setLastProgramme] = useState<Programme>(PROGRAMMES[0]);

  return (
    <footer className="bg-slate-900 text-slate-300">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-2 lg:grid-cols-4 lg:px-8">
        <div>
          <div className="flex items-center gap-2">
            <Logo />
            <span className="text-lg font-bold text-white">{PRODUCT_NAME}</span>
          </div>
          <p className="mt-4 max-w-xs text-sm">
            Palm-scan payments for India: an INR wallet you open with your hand, and consent you can verify.
          </p>
        </div>

        <LinkColumn heading="Product" links={PRODUCT_LINKS} />
        <LinkColumn heading="Company" links={COMPANY_LINKS} />

        <div>
          <h2 className="text-sm font-semibold text-white">Rewards</h2>
          <ul className="mt-4 space-y-3 text-sm">
            {PROGRAMMES.map((name) => (
              <li key={name}>
                <button
                  type="button"
                  className={`${footerLinkClass} text-left`}
                  onClick={() => {
                    setLastProgramme(name);
                    setProgramme(name);
                  }}
                >
                  {name}
                </button>
              </li>
            ))}
          </ul>
        </div>
      </div>

      <div className="border-t border-slate-800">
        <p className="mx-auto max-w-7xl px-4 py-6 text-sm sm:px-6 lg:px-8">
          © {COPYRIGHT_YEAR} {PRODUCT_NAME}
        </p>
      </div>

      <Modal
        open={programme !== null}
        title={comingSoonTitle(programme ?? lastProgramme)}
        onClose={() => setProgramme(null)}
      >
        <p>{messages.comingSoonBody}</p>
      </Modal>
    </footer>
  );
}
