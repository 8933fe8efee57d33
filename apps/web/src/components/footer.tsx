import { PRODUCT_NAME } from '@hasta/contracts/constants';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { Logo } from './logo';
import { focusRing } from './ui-classes';

/**
 * The programmes of the footer (spec §2.2), by translation key: each opens its page of rules (issue 24; the
 * spec's Coming Soon modal is gone now that the programmes run).
 */
const PROGRAMMES = [
  { to: '/rewards/stars', labelKey: 'starsProgramme' },
  { to: '/rewards/points', labelKey: 'pointsProgramme' },
] as const;

const COPYRIGHT_YEAR = 2025;

const footerLinkClass = `${focusRing} rounded-sm text-slate-300 hover:text-white`;

type FooterLinkKey = 'technology' | 'features' | 'demo' | 'waitlist' | 'contact' | 'privacy' | 'terms';

const PRODUCT_LINKS = [
  { to: '/technology', labelKey: 'technology' },
  { to: '/features', labelKey: 'features' },
  { to: '/demo', labelKey: 'demo' },
  { to: '/applicants-register', labelKey: 'waitlist' },
] as const;

const COMPANY_LINKS = [
  { to: '/contact', labelKey: 'contact' },
  { to: '/privacy', labelKey: 'privacy' },
  { to: '/terms', labelKey: 'terms' },
] as const;

function LinkColumn({
  heading,
  links,
}: {
  heading: string;
  links: ReadonlyArray<{ to: string; labelKey: FooterLinkKey }>;
}) {
  const { t } = useTranslation();
  return (
    <div>
      <h2 className="text-sm font-semibold text-white">{heading}</h2>
      <ul className="mt-4 space-y-3 text-sm">
        {links.map((link) => (
          <li key={link.to}>
            <Link to={link.to} className={footerLinkClass}>
              {t(`footer.${link.labelKey}`)}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function Footer() {
  const { t } = useTranslation();

  return (
    <footer className="bg-slate-900 text-slate-300">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-2 lg:grid-cols-4 lg:px-8">
        <div>
          <div className="flex items-center gap-2">
            <Logo />
            <span className="text-lg font-bold text-white">{PRODUCT_NAME}</span>
          </div>
          <p className="mt-4 max-w-xs text-sm">{t('footer.tagline')}</p>
        </div>

        <LinkColumn heading={t('footer.product')} links={PRODUCT_LINKS} />
        <LinkColumn heading={t('footer.company')} links={COMPANY_LINKS} />

        <div>
          <h2 className="text-sm font-semibold text-white">{t('footer.rewards')}</h2>
          <ul className="mt-4 space-y-3 text-sm">
            {PROGRAMMES.map((programme) => (
              <li key={programme.to}>
                <Link to={programme.to} className={footerLinkClass}>
                  {t(`footer.${programme.labelKey}`)}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      </div>

      <div className="border-t border-slate-800">
        <p className="mx-auto max-w-7xl px-4 py-6 text-sm sm:px-6 lg:px-8">
          {t('footer.copyright', { year: String(COPYRIGHT_YEAR), product: PRODUCT_NAME })}
        </p>
      </div>
    </footer>
  );
}
