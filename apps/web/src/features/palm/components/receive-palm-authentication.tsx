import { messages } from '@hasta/contracts/messages';
import { formatInr } from '@hasta/ledger/money';

import { useState } from 'react';

import { PalmScanner } from '../../../components/palm-scanner/palm-scanner';
import type { PalmScanOutcome } from '../../../components/palm-scanner/palm-scanner';
import { authenticatePalmPayment } from '../api/palm';
import type { PalmPaymentAnswer } from '../api/palm';
import { PalmPaymentCode, usePalmCodeStep } from './palm-payment-code';

/** What /receive gives its palm step (the wallet's `ReceivePalmStepProps`). */
export interface ReceivePalmAuthenticationProps {
  /** The expected amount as typed and checked ("25.5"). */
  amountText: string;
  /** The signed-in receiver's own contacts (the server checks they are the caller's). */
  receiverEmail: string | null;
  receiverPhone: string | null;
  /** The money arrived: the page reloads its figures and goes back. */
  onReceived: () => void;
}

/**
 * The /receive palm step (spec §2.15, §4 "Receive"): the scanner in authentication mode identifies the payer
 * by their palm among all registered palms, and the amount moves from them to the signed-in receiver
 * (POST /Palm/authenticate; up to the palm limit the palm is the only factor, above it the payer's code
 * confirms: decision 022). Success says 'Authentication successful!' and
 * 'You can now receive funds.'; failure shows the server's message (or 'Authentication failed. Please try
 * again.') and Try Again.
 */
export function ReceivePalmAuthentication({
  amountText,
  receiverEmail,
  receiverPhone,
  onReceived,
}: ReceivePalmAuthenticationProps) {
  const codeStep = usePalmCodeStep();
  const [paid, setPaid] = useState<PalmScanOutcome | null>(null);

  if (paid !== null) {
    return (
      <div role="status" className="rounded-lg bg-emerald-50 px-4 py-3">
        <p className="text-lg font-semibold text-emerald-900">{paid.title}</p>
        <p className="mt-1 text-emerald-900">{paid.detail}</p>
      </div>
    );
  }
  if (codeStep.waiting !== null) {
    return (
      <PalmPaymentCode
        confirmation={codeStep.waiting.confirmation}
        message={codeStep.waiting.message}
        onPaid={(answer) => {
          setPaid(receivedOutcome(answer));
          onReceived();
        }}
        onClosed={codeStep.onClosed}
      />
    );
  }
  return (
    <div className="space-y-4">
      <p className="text-slate-700">
        Ask the payer to hold their palm inside the box: {formatInr(amountText, 'en-IN')} moves from their
        wallet to yours.
      </p>
      <PalmScanner
        purpose="authenticate"
        errorFallback={messages.authenticationFailedRetry}
        onScan={async (scan) => {
          const answer = await authenticatePalmPayment({ amountText, receiverEmail, receiverPhone, scan });
          if (codeStep.waitsForCode(answer)) return { title: answer.message, detail: '' };
          return receivedOutcome(answer);
        }}
        onSuccess={() => {
          if (codeStep.paidByScan()) onReceived();
        }}
      />
    </div>
  );
}

/** 'Authentication successful!' and 'You can now receive funds. Received ₹X from Y.' */
function receivedOutcome(answer: PalmPaymentAnswer): PalmScanOutcome {
  // The payer as the server lets a receiver see them: their initial and a masked address ("A. a•••@d•••").
  const { from_user_name: name, from_user_email: address } = answer.transaction;
  const from = address === null ? null : name === undefined ? address : `${name} ${address}`;
  const received = `Received ${formatInr(answer.transaction.amount, 'en-IN')}${from === null ? '' : ` from ${from}`}.`;
  return { title: messages.authenticationSuccessful, detail: `${messages.canReceiveFunds} ${received}` };
}
