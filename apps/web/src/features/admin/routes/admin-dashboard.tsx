import { Page } from '../../../components/page';
import { UsersSection } from '../components/users-section';

export function AdminDashboardRoute() {
  return (
    <Page title="Admin Dashboard" lead="Manage users, balances and registrations.">
      <p className="max-w-3xl text-slate-600">
        Send Value, Transactions, Applicants, Inquiries and Vendor Registrations will appear here in an
        upcoming update.
      </p>
      <UsersSection />
    </Page>
  );
}
