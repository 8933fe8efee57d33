import { Page } from '../../../components/page';

export function StoreDashboardRoute() {
  return (
    <Page title="Merchant Dashboard" lead="Accept palm payments at your store.">
      <p className="max-w-3xl text-slate-600">
        Payments, palm acceptance, QR codes, withdrawals and store settings will appear here in an upcoming
        update.
      </p>
    </Page>
  );
}
