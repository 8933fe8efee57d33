import { messages } from '@hasta/contracts/messages';

import { useTranslation } from 'react-i18next';

import { BrowserDeviceGate, useRecheckBrowserDevice } from '../../../components/browser-device-gate';
import { PalmScanner } from '../../../components/palm-scanner/palm-scanner';
import { secondaryButtonClass } from '../../../components/ui-classes';
import { useStoredUser } from '../../../lib/auth-storage';
import { browserDeviceName, signedScan, withBrowserDevice } from '../../../lib/device-session';
import { takeStorePalmPayment } from '../api/palm';
import { PalmPaymentCode, usePalmCodeStep } from './palm-payment-code';
import { PayPrompt, receivedLine } from './receive-palm-authentication';
import { formatMoney } from '../../../lib/i18n-format';

/** What the merchant dashboard's Accept Palm tab gives its scanner (its `PalmPaymentScannerProps`). */
export interface StorePalmScannerProps {
  /** The amount in paise (checked by the tab before the scan). */
  amountPaise: bigint;
  /** The amount as typed and checked ("250.5"). */
  amountText: string;
  /** The store as the customer sees it before paying. */
  payeeName: string;
  /** Paid: what arrived and from whom, in words ("Received ₹150.00 from A. a•••@d•••."). */
  onPaid: (summary: string) => void;
  onCancel: () => void;
  /** Offers a QR code for the amount instead. */
  onUseQr: () => void;
}

/**
 * Accept Palm's scanner (spec §2.16): the customer's palm names the payer and the amount goes into the
 * signed-in store (POST /api/transaction); above the palm limit the customer's code confirms it (decision 022).
 * Success is shown by the tab ('Transaction Successful!'); a failure
 * here, with Try Again. Cancel returns to the amount.
 */
export function StorePalmScanner({
  amountText,
  payeeName,
  onPaid,
  onCancel,
  onUseQr,
}: StorePalmScannerProps) {
  const { t } = useTranslation('palmScan');
  const { t: deviceText } = useTranslation('devices');
  const codeStep = usePalmCodeStep();
  // The owner's browser takes the payment as a terminal of the store (issue 22), paired on first use.
  const slot = `store:${useStoredUser()?.id ?? ''}` as const;
  // A device revoked elsewhere is forgotten by the scan: the gate then asks for the step-up again.
  const recheckDevice = useRecheckBrowserDevice(slot);
  if (codeStep.waiting !== null) {
    return (
      <PalmPaymentCode
        confirmation={codeStep.waiting.confirmation}
        message={codeStep.waiting.message}
        onPaid={(answer) => onPaid(receivedLine(t, answer))}
        onClosed={codeStep.onClosed}
      />
    );
  }
  return (
    <div className="space-y-4">
      <PayPrompt amountText={amountText} payee={payeeName} />
      <BrowserDeviceGate slot={slot} intro={<p>{deviceText('thisBrowser.storeIntro')}</p>}>
        <PalmScanner
          purpose="authenticate"
          showSuccess={false}
          errorFallback={messages.transactionFailed}
          onScan={async (scan) => {
            // One key for this payment, so the retry after a lost terminal below cannot pay twice.
            const idempotencyKey = crypto.randomUUID();
            const answer = await recheckDevice(
              withBrowserDevice(
                { slot, kind: 'terminal', name: `Accept Palm (${browserDeviceName()})` },
                async (device) =>
                  takeStorePalmPayment({
                    amountText,
                    scan,
                    idempotencyKey,
                    signed: await signedScan(
                      device,
                      { purpose: 'pay', amount: Number(amountText) },
                      scan.frames,
                    ),
                  }),
              ),
            );
            if (codeStep.waitsForCode(answer)) return { title: answer.message, detail: '' };
            return { title: messages.transactionSuccessful, detail: receivedLine(t, answer) };
          }}
          onSuccess={(outcome) => {
            if (codeStep.paidByScan()) onPaid(outcome.detail);
          }}
        />
      </BrowserDeviceGate>
      <div className="flex flex-wrap gap-3">
        <button type="button" className={secondaryButtonClass} onClick={onUseQr}>
          {t('store.useQr', { amount: formatMoney(amountText) })}
        </button>
        <button type="button" className={secondaryButtonClass} onClick={onCancel}>
          {t('register.cancel')}
        </button>
      </div>
    </div>
  );
}
