import { useState } from 'react';

import { Page } from '../../../components/page';
import { Tabs } from '../../../components/tabs';
import { SendValueSection } from '../components/send-value-section';
import { TransactionsSection } from '../components/transactions-section';
import { UsersSection } from '../components/users-section';

const TABS = [
  { key: 'users', label: 'Users' },
  { key: 'send-value', label: 'Send Value' },
  { key: 'transactions', label: 'Transactions' },
] as const;
type TabKey = (typeof TABS)[number]['key'];

/** The admin dashboard (spec §2.17): each tab mounts, and so loads its list, every time it opens. */
export function AdminDashboardRoute() {
  const [tab, setTab] = useState<TabKey>('users');
  return (
    <Page title="Admin Dashboard" lead="Manage users, balances and transactions.">
      <Tabs label="Admin sections" tabs={TABS} active={tab} onChange={setTab}>
        {tab === 'users' ? <UsersSection /> : null}
        {tab === 'send-value' ? <SendValueSection /> : null}
        {tab === 'transactions' ? <TransactionsSection /> : null}
      </Tabs>
      <p className="mt-10 max-w-3xl text-slate-600">
        Applicants, Inquiries and Vendor Registrations will appear here in an upcoming update.
      </p>
    </Page>
  );
}
