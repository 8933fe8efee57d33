import { messages } from '@hasta/contracts/messages';

import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';

import { BrowserDeviceGate, useRecheckBrowserDevice } from '../../../components/browser-device-gate';
import { PalmScanner } from '../../../components/palm-scanner/palm-scanner';
import type { PalmScanOutcome } from '../../../components/palm-scanner/palm-scanner';
import { useStoredUser } from '../../../lib/auth-storage';
import { browserDeviceName, signedScan, withBrowserDevice } from '../../../lib/device-session';
import { authenticatePalmPayment } from '../api/palm';
import type { PalmPaymentAnswer } from '../api/palm';
import { PalmPaymentCode, usePalmCodeStep } from './palm-payment-code';
import { formatMoney } from '../../../lib/i18n-format';

/** What /receive gives its palm step (the wallet's `ReceivePalmStepProps`). */
export interface ReceivePalmAuthenticationProps {
  /** The expected amount as typed and checked ("25.5"). */
  amountText: string;
  /** The signed-in receiver's own contacts (the server checks they are the caller's). */
  receiverEmail: string | null;
  receiverPhone: string | null;
  /** The receiver as the payer sees them on this screen ("Asha K."). */
  payeeName: string;
  /** The money arrived: the page reloads its figures and goes back. */
  onReceived: () => void;
}

/**
 * The /receive palm step (spec §2.15, §4 "Receive"): the scanner in authentication mode identifies the payer
 * by their palm among all registered palms, and the amount moves from them to the signed-in receiver
 * (POST /Palm/authenticate; up to the palm limit the palm is the only factor, above it the payer's code
 * confirms: decision 022). Before the scan the payer reads what they pay and to whom ("Pay ₹200.00 to Asha K.");
 * success says 'Authentication successful!' with the server's answer put in words: the amount received and
 * from whom (masked); failure shows the server's message (or 'Authentication failed. Please try
 * again.') and Try Again.
 */
export function ReceivePalmAuthentication({
  amountText,
  receiverEmail,
  receiverPhone,
  payeeName,
  onReceived,
}: ReceivePalmAuthenticationProps) {
  const { t } = useTranslation('palmScan');
  const { t: deviceText } = useTranslation('devices');
  const codeStep = usePalmCodeStep();
  const [paid, setPaid] = useState<PalmScanOutcome | null>(null);
  // This browser signs each scan as the receiver's own device (issue 22), made after a step-up.
  const slot = `personal:${useStoredUser()?.id ?? ''}` as const;
  // A device revoked elsewhere is forgotten by the scan: the gate then asks for the step-up again.
  const recheckDevice = useRecheckBrowserDevice(slot);

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
          setPaid(receivedOutcome(t, answer));
          onReceived();
        }}
        onClosed={codeStep.onClosed}
      />
    );
  }
  return (
    <BrowserDeviceGate slot={slot} intro={<p>{deviceText('thisBrowser.receiveIntro')}</p>}>
      <div className="space-y-4">
        <PayPrompt amountText={amountText} payee={payeeName} />
        <PalmScanner
          purpose="authenticate"
          errorFallback={messages.authenticationFailedRetry}
          onScan={async (scan) => {
            const answer = await recheckDevice(
              withBrowserDevice({ slot, kind: 'personal', name: browserDeviceName() }, async (device) =>
                authenticatePalmPayment({
                  amountText,
                  receiverEmail,
                  receiverPhone,
                  scan,
                  signed: await signedScan(
                    device,
                    { purpose: 'receive', amount: Number(amountText) },
                    scan.frames,
                  ),
                }),
              ),
            );
            if (codeStep.waitsForCode(answer)) return { title: answer.message, detail: '' };
            return receivedOutcome(t, answer);
          }}
          onSuccess={() => {
            if (codeStep.paidByScan()) onReceived();
          }}
        />
      </div>
    </BrowserDeviceGate>
  );
}

/**
 * What the payer reads before a palm payment, on the receiver's screen or the store's: the amount and the
 * payee ("Pay ₹200.00 to Asha K."), then what to do.
 */
export function PayPrompt({ amountText, payee }: { amountText: string; payee: string }) {
  const { t } = useTranslation('palmScan');
  const amount = formatMoney(amountText);
  return (
    <div className="rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-3">
      <p className="text-xl font-bold text-emerald-950" data-testid="pay-prompt">
        {t('pay.prompt', { amount, payee })}
      </p>
      <p className="mt-1 text-emerald-950">{t('pay.payerHint')}</p>
    </div>
  );
}

/** A palm payment's result in words: the amount received and from whom, as the server lets them be seen. */
export function receivedLine(t: TFunction<'palmScan'>, answer: PalmPaymentAnswer): string {
  // The payer as the server lets a receiver see them: their initial and a masked address ("A. a•••@d•••").
  const { from_user_name: name, from_user_email: address } = answer.transaction;
  const payer = address === null ? null : name === undefined ? address : `${name} ${address}`;
  const amount = formatMoney(answer.transaction.amount);
  return payer === null ? t('pay.receivedAmount', { amount }) : t('pay.received', { amount, payer });
}

/** 'Authentication successful!' and what arrived: "Received ₹X from Y." */
function receivedOutcome(t: TFunction<'palmScan'>, answer: PalmPaymentAnswer): PalmScanOutcome {
  return { title: messages.authenticationSuccessful, detail: receivedLine(t, answer) };
}
