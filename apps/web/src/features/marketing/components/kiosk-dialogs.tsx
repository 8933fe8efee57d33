import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { Modal } from '../../../components/modal';
import { HostKioskForm } from './host-kiosk-form';
import { KioskLocator } from './kiosk-locator';
import { PosSpecs } from './pos-specs';

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
        {dialog?.kind === 'locate' ? <KioskLocator initialQuery={dialog.query} /> : null}
      </Modal>
      <Modal open={dialog?.kind === 'host'} title={t('host.title')} onClose={onClose}>
        {dialog?.kind === 'host' ? <HostKioskForm /> : null}
      </Modal>
      <Modal open={dialog?.kind === 'pos'} title={t('pos.title')} onClose={onClose}>
        {dialog?.kind === 'pos' ? <PosSpecs /> : null}
      </Modal>
    </>
  );
}
