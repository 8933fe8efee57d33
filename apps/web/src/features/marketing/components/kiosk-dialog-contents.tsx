import { QueryProvider } from '../../../components/query-provider';
import { HostKioskForm } from './host-kiosk-form';
import { KioskLocator } from './kiosk-locator';

/*
 * The locator's and the host form's dialog contents, loaded when a dialog first opens. Each brings the query
 * client: the home page, which offers these dialogs, loads without one (see app/router.tsx). On a page that
 * has one, it is the same client, so the cache is shared.
 */

export function LocatorDialogContent({ initialQuery }: { initialQuery: string }) {
  return (
    <QueryProvider>
      <KioskLocator initialQuery={initialQuery} />
    </QueryProvider>
  );
}

export function HostDialogContent() {
  return (
    <QueryProvider>
      <HostKioskForm />
    </QueryProvider>
  );
}
