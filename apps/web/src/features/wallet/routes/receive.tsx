import { Page } from '../../../components/page';
import { BackToDashboard } from '../components/back-to-dashboard';

export function ReceiveRoute() {
  return (
    <Page title="Receive Money" lead="Share your email or phone number with others to receive money">
      <p className="max-w-3xl text-slate-600">
        Confirming an incoming payment with a palm scan opens here in an upcoming update.
      </p>
      <BackToDashboard />
    </Page>
  );
}
