import { Page } from '../../../components/page';
import { BackToDashboard } from '../components/back-to-dashboard';

export function QrScanRoute() {
  return (
    <Page title="Scan QR Code" lead="Pay a merchant by scanning their QR code.">
      <p className="max-w-3xl text-slate-600">The QR scanner opens here in an upcoming update.</p>
      <BackToDashboard />
    </Page>
  );
}
