import { messages } from '@hasta/contracts/messages';
import { formatInr } from '@hasta/ledger/money';

import { PalmScanner } from '../../../components/palm-scanner/palm-scanner';
import { secondaryButtonClass } from '../../../components/ui-classes';
import { takeStorePalmPayment } from '../api/palm';
import { PalmPaymentCode, usePalmCodeStep } from './palm-payment-code';

/** What the merchant dashboard's Accept Palm tab gives its scanner (its `PalmPaymentScannerProps`). */
export interface StorePalmScannerProps {
  /** The amount in paise (checked by the tab before the scan). */
  amountPaise: bigint;
  /** The amount as typed and checked ("250.5"). */
  amountText: string;
  onPaid: () => void;
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
export function StorePalmScanner({ amountText, onPaid, onCancel, onUseQr }: StorePalmScannerProps) {
  const codeStep = usePalmCodeStep();
  if (codeStep.waiting !== null) {
    return (
      <PalmPaymentCode
        confirmation={codeStep.waiting.confirmation}
        message={codeStep.waiting.message}
        onPaid={() => onPaid()}
        onClosed={codeStep.onClosed}
      />
    );
  }
  return (
    <div className="space-y-4">
      <p className="text-slate-700">Ask the customer to hold their palm inside the box.</p>
      <PalmScanner
        purpose="authenticate"
        showSuccess={false}
        errorFallback={messages.transactionFailed}
        onScan={async (scan) => {
          const answer = await takeStorePalmPayment({ amountText, scan });
          codeStep.waitsForCode(answer);
          return { title: messages.transactionSuccessful, detail: answer.message };
        }}
        onSuccess={() => {
          if (codeStep.paidByScan()) onPaid();
        }}
      />
      <div className="flex flex-wrap gap-3">
        <button type="button" className={secondaryButtonClass} onClick={onUseQr}>
          Show a QR code for {formatInr(amountText, 'en-IN')} instead
        </button>
        <button type="button" className={secondaryButtonClass} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
