import { Page } from '../../../components/page';
import { BackToDashboard } from '../components/back-to-dashboard';

export function TransferRoute() {
  return (
    <Page
      title="Send Money"
      lead="Send rupees to anyone by phone number or email, confirmed with a one-time code."
    >
      <p className="max-w-3xl text-slate-600">The transfer form opens here in an upcoming update.</p>
      <BackToDashboard />
    </Page>
  );
}
