import { Page } from '../../../components/page';

export function AdminDashboardRoute() {
  return (
    <Page title="Admin Dashboard" lead="Manage users, balances and registrations.">
      <p className="max-w-3xl text-slate-600">
        Users, Send Value, Transactions, Applicants, Inquiries and Vendor Registrations will appear here in an
        upcoming update.
      </p>
    </Page>
  );
}
