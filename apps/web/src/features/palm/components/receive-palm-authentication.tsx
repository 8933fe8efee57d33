import { messages } from '@hasta/contracts/messages';

import { PalmScanner } from '../../../components/palm-scanner/palm-scanner';
import { formatInr } from '../../../lib/money-format';
import { authenticatePalmPayment } from '../api/palm';

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
 * (POST /Palm/authenticate; no OTP: the palm is the factor). Success says 'Authentication successful!' and
 * 'You can now receive funds.'; failure shows the server's message (or 'Authentication failed. Please try
 * again.') and Try Again.
 */
export function ReceivePalmAuthentication({
  amountText,
  receiverEmail,
  receiverPhone,
  onReceived,
}: ReceivePalmAuthenticationProps) {
  return (
    <div className="space-y-4">
      <p className="text-slate-700">
        Ask the payer to hold their palm inside the box: {formatInr(amountText)} moves from their wallet to
        yours.
      </p>
      <PalmScanner
        purpose="authenticate"
        errorFallback={messages.authenticationFailedRetry}
        onScan={async (scan) => {
          const answer = await authenticatePalmPayment({ amountText, receiverEmail, receiverPhone, scan });
          const from = answer.transaction.from_user_email;
          const received = `Received ${formatInr(answer.transaction.amount)}${from === null ? '' : ` from ${from}`}.`;
          return {
            title: messages.authenticationSuccessful,
            detail: `${messages.canReceiveFunds} ${received}`,
          };
        }}
        onSuccess={onReceived}
      />
    </div>
  );
}
