import { useTranslation } from 'react-i18next';
import { messages } from '@hasta/contracts/messages';
import { parsePaymentUri } from '@hasta/contracts/qr';
import { useState } from 'react';

import { secondaryButtonClass } from '../../../components/ui-classes';
import { errorMessage } from '../../../lib/api-client';
import { resolvePaymentQr } from '../api/qr';
import type { ScannedPayee } from '../api/qr';
import { QrScanner } from './qr-scanner';

type Step = { kind: 'scanning' } | { kind: 'resolving' } | { kind: 'failed'; message: string };

/**
 * Scan a payment QR code and ask the server whom it pays (used by /qr-scan and /transfer's QR mode). A code that
 * is not a Hasta payment code is refused here without a call; the server checks everything again.
 */
export function QrPayScanner({ onResolved }: { onResolved: (payee: ScannedPayee) => void }) {
  const { t } = useTranslation('wallet');
  const [step, setStep] = useState<Step>({ kind: 'scanning' });
  const [attempt, setAttempt] = useState(0);

  const read = async (text: string): Promise<void> => {
    if (parsePaymentUri(text) === null) {
      setStep({ kind: 'failed', message: messages.invalidQr });
      return;
    }
    setStep({ kind: 'resolving' });
    try {
      onResolved(await resolvePaymentQr(text));
    } catch (cause) {
      setStep({ kind: 'failed', message: errorMessage(cause, messages.invalidQr) });
    }
  };

  const again = (): void => {
    setAttempt((count) => count + 1);
    setStep({ kind: 'scanning' });
  };

  return (
    <div className="space-y-4">
      {step.kind === 'scanning' ? <QrScanner key={attempt} onDecode={(text) => void read(text)} /> : null}
      {step.kind === 'resolving' ? (
        <p role="status" className="text-slate-700">
          {t('qrScan.reading')}
        </p>
      ) : null}
      {step.kind === 'failed' ? (
        <div className="space-y-3">
          <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm font-medium text-red-800">
            {step.message}
          </p>
          <button type="button" className={secondaryButtonClass} onClick={again}>
            {t('qrScan.again')}
          </button>
        </div>
      ) : null}
    </div>
  );
}
