import { useState } from 'react';
import type { ComponentType } from 'react';

import { Page } from '../../../components/page';
import { PasskeysList } from '../../../components/passkeys-list';
import { Tabs } from '../../../components/tabs';
import { ApplicantsSection } from '../components/applicants-section';
import { DisputesSection } from '../components/disputes-section';
import { InquiriesSection } from '../components/inquiries-section';
import { KioskApplicationsSection } from '../components/kiosk-applications-section';
import { MerchantsSection } from '../components/merchants-section';
import { SendValueSection } from '../components/send-value-section';
import { TransactionsSection } from '../components/transactions-section';
import { UsersSection } from '../components/users-section';
import { VendorRegistrationsSection } from '../components/vendor-registrations-section';

const TABS = [
  { key: 'users', label: 'Users' },
  { key: 'send-value', label: 'Send Value' },
  { key: 'transactions', label: 'Transactions' },
  { key: 'applicants', label: 'Applicants' },
  { key: 'inquiries', label: 'Inquiries' },
  { key: 'vendor-registrations', label: 'Vendor Registrations' },
  { key: 'kiosk-applications', label: 'Kiosk Applications' },
  { key: 'merchants', label: 'Merchants' },
  { key: 'disputes', label: 'Disputes' },
] as const;
type TabKey = (typeof TABS)[number]['key'];

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
};

/** The admin dashboard (spec §2.17): only the open tab is mounted, so each loads its list when it opens. */
export function AdminDashboardRoute() {
  const [tab, setTab] = useState<TabKey>('users');
  const Section = SECTIONS[tab];
  return (
    <Page
      title="Admin Dashboard"
      lead="Manage users, balances and transactions, the public site's sign-ups, merchants, and disputed palm payments."
    >
      <Tabs label="Admin sections" tabs={TABS} active={tab} onChange={setTab}>
        <Section key={tab} />
      </Tabs>
      <PasskeysList headingLevel={2} />
    </Page>
  );
}
