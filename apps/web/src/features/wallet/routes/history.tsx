import { Page } from '../../../components/page';
import { BackToDashboard } from '../components/back-to-dashboard';

export function HistoryRoute() {
  return (
    <Page title="Transaction History" lead="Your blockchain transaction records">
      <p className="max-w-3xl text-slate-600">Your transactions will be listed here in an upcoming update.</p>
      <BackToDashboard />
    </Page>
  );
}
