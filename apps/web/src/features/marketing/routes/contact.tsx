import type { ReactNode } from 'react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

import { Page } from '../../../components/page';
import { cardClass, textLinkClass } from '../../../components/ui-classes';
import { FigureList } from '../components/figure-list';
import { InquiryForm } from '../components/inquiry-form';
import { VendorForm } from '../components/vendor-form';
import { CONTACT } from '../content';

const ABOUT = ['mission', 'vision', 'values'] as const;

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

function ExternalLink({ href, children }: { href: string; children: ReactNode }) {
  const { t } = useTranslation('contact');
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={textLinkClass}>
      {children}
      <span className="sr-only"> {t('reach.newTab')}</span>
    </a>
  );
}

/** About / Contact (spec §2.7). */
export function ContactRoute() {
  const { t } = useTranslation('contact');
  const inquiryTitleId = useId();
  const vendorTitleId = useId();

  return (
    <Page title={t('title')} lead={t('lead')}>
      <Section id="about-title" title={t('about.title')}>
        <ul className="grid gap-6 md:grid-cols-3">
          {ABOUT.map((item) => (
            <li key={item} className={cardClass}>
              <h3 className="text-lg font-semibold text-slate-900">{t(`about.${item}.title`)}</h3>
              <p className="mt-2 text-slate-600">{t(`about.${item}.body`)}</p>
            </li>
          ))}
        </ul>
      </Section>

      <Section id="stats-title" title={t('stats.title')}>
        <FigureList
          figures={['patentClaims', 'recognised', 'verification', 'dataPoints']}
          className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4"
        />
      </Section>

      <Section id="reach-title" title={t('reach.title')}>
        <div className={`${cardClass} grid gap-6 md:grid-cols-2`}>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-3">
            <dt className="font-medium text-slate-800">{t('reach.email')}</dt>
            <dd>
              <a href={`mailto:${CONTACT.email}`} className={textLinkClass}>
                {CONTACT.email}
              </a>
            </dd>
            <dt className="font-medium text-slate-800">{t('reach.phone')}</dt>
            <dd>
              <a href={CONTACT.phoneHref} className={textLinkClass}>
                {CONTACT.phoneDisplay}
              </a>
            </dd>
            <dt className="font-medium text-slate-800">{t('reach.office')}</dt>
            <dd className="text-slate-600">{t('reach.officeValue')}</dd>
            <dt className="font-medium text-slate-800">{t('reach.hours')}</dt>
            <dd className="text-slate-600">{t('reach.hoursValue')}</dd>
          </dl>
          <div>
            <h3 className="font-semibold text-slate-900">{t('reach.chat')}</h3>
            <ul className="mt-3 space-y-2">
              <li>
                <ExternalLink href={CONTACT.whatsapp}>{t('reach.whatsapp')}</ExternalLink>
              </li>
              <li>
                <ExternalLink href={CONTACT.telegram}>{t('reach.telegram')}</ExternalLink>
              </li>
            </ul>
          </div>
        </div>
      </Section>

      <div className="mt-14 grid gap-8 lg:grid-cols-2">
        <section aria-labelledby={inquiryTitleId} className={cardClass}>
          <h2 id={inquiryTitleId} className="text-2xl font-bold text-slate-900">
            {t('inquiry.title')}
          </h2>
          <p className="mt-2 text-slate-600">{t('inquiry.intro')}</p>
          <div className="mt-6">
            <InquiryForm titleId={inquiryTitleId} />
          </div>
        </section>
        <section aria-labelledby={vendorTitleId} className={cardClass}>
          <h2 id={vendorTitleId} className="text-2xl font-bold text-slate-900">
            {t('vendor.title')}
          </h2>
          <p className="mt-2 text-slate-600">{t('vendor.intro')}</p>
          <div className="mt-6">
            <VendorForm titleId={vendorTitleId} />
          </div>
        </section>
      </div>
    </Page>
  );
}
