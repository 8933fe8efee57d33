import { Suspense, lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { Modal } from '../../../components/modal';
import { PosSpecs } from './pos-specs';

// Loaded when first opened: the pages that offer them stay light (the form brings its validation library).
const LocatorDialogContent = lazy(() =>
  import('./kiosk-dialog-contents').then((module) => ({ default: module.LocatorDialogContent })),
);
const HostDialogContent = lazy(() =>
  import('./kiosk-dialog-contents').then((module) => ({ default: module.HostDialogContent })),
);

/** Which kiosk dialog is open (spec §4: modals open and close by local flags). */
export type KioskDialog = { kind: 'locate'; query: string } | { kind: 'host' } | { kind: 'pos' } | null;

export function useKioskDialog() {
  const [dialog, setDialog] = useState<KioskDialog>(null);
  return {
    dialog,
    openLocator: (query = '') => setDialog({ kind: 'locate', query }),
    openHost: () => setDialog({ kind: 'host' }),
    openPos: () => setDialog({ kind: 'pos' }),
    close: () => setDialog(null),
  };
}

/**
 * The locator, host-a-kiosk and POS dialogs of the home and technology pages. Each one's content mounts
 * when it opens, so it starts afresh every time (an empty host form, the locator's new search).
 */
export function KioskDialogs({ dialog, onClose }: { dialog: KioskDialog; onClose: () => void }) {
  const { t } = useTranslation('marketing');
  return (
    <>
      <Modal open={dialog?.kind === 'locate'} title={t('kiosk.locateTitle')} onClose={onClose}>
        {dialog?.kind === 'locate' ? (
          <Suspense fallback={<p role="status">{t('kiosk.loading')}</p>}>
            <LocatorDialogContent initialQuery={dialog.query} />
          </Suspense>
        ) : null}
      </Modal>
      <Modal open={dialog?.kind === 'host'} title={t('host.title')} onClose={onClose}>
        {dialog?.kind === 'host' ? (
          <Suspense fallback={null}>
            <HostDialogContent />
          </Suspense>
        ) : null}
      </Modal>
      <Modal open={dialog?.kind === 'pos'} title={t('pos.title')} onClose={onClose}>
        {dialog?.kind === 'pos' ? <PosSpecs /> : null}
      </Modal>
    </>
  );
}
