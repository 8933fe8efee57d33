import { useState } from 'react';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';

import { Page } from '../../../components/page';
import { PasskeysList } from '../../../components/passkeys-list';
import { SessionsList } from '../../../components/sessions-list';
import { Tabs } from '../../../components/tabs';
import { ApplicantsSection } from '../components/applicants-section';
import { DevicesSection } from '../components/devices-section';
import { DisputesSection } from '../components/disputes-section';
import { InquiriesSection } from '../components/inquiries-section';
import { KioskApplicationsSection } from '../components/kiosk-applications-section';
import { MerchantsSection } from '../components/merchants-section';
import { SendValueSection } from '../components/send-value-section';
import { TransactionsSection } from '../components/transactions-section';
import { UsersSection } from '../components/users-section';
import { VendorRegistrationsSection } from '../components/vendor-registrations-section';

const TAB_KEYS = [
  'users',
  'send-value',
  'transactions',
  'applicants',
  'inquiries',
  'vendor-registrations',
  'kiosk-applications',
  'merchants',
  'disputes',
  'devices',
] as const;
type TabKey = (typeof TAB_KEYS)[number];

const SECTIONS: Record<TabKey, ComponentType> = {
  users: UsersSection,
  'send-value': SendValueSection,
  transactions: TransactionsSection,
  applicants: ApplicantsSection,
  inquiries: InquiriesSection,
  'vendor-registrations': VendorRegistrationsSection,
  'kiosk-applications': KioskApplicationsSection,
  merchants: MerchantsSection,
  disputes: DisputesSection,
  devices: DevicesSection,
};

/** The admin dashboard (spec §2.17): only the open tab is mounted, so each loads its list when it opens. */
export function AdminDashboardRoute() {
  const { t } = useTranslation('admin');
  const [tab, setTab] = useState<TabKey>('users');
  const Section = SECTIONS[tab];
  const tabs = TAB_KEYS.map((key) => ({ key, label: t(`tabs.${key}`) }));
  return (
    <Page title={t('title')} lead={t('lead')}>
      <Tabs label={t('tabsLabel')} tabs={tabs} active={tab} onChange={setTab}>
        <Section key={tab} />
      </Tabs>
      <PasskeysList headingLevel={2} />
      <SessionsList headingLevel={2} />
    </Page>
  );
}
