import { messages } from '@hasta/contracts/messages';
import type { PalmConfirmation } from '@hasta/contracts/palm';
import { useId, useRef, useState } from 'react';
import { toast } from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import type { FormEvent } from 'react';

import { CodeChannelBadge, FormAlert, OtpField } from '../../../components/form-field';
import { disabledClass, primaryButtonClass, secondaryButtonClass } from '../../../components/ui-classes';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { translateMessage } from '../../../lib/server-message';
import { cancelPalmPayment, confirmPalmPayment } from '../api/palm';
import type { PalmConfirmationAnswer, PalmPaymentAnswer, PalmPaymentOrConfirmation } from '../api/palm';
import { formatMoney } from '../../../lib/i18n-format';

export interface PalmPaymentCodeProps {
  confirmation: PalmConfirmation;
  /** What the server said: 'Palm recognised. Ask the payer for the 6-digit code sent to their phone.' */
  message: string;
  onPaid: (answer: PalmPaymentAnswer) => void;
  /** Cancelled, or no longer payable (expired, too many wrong codes): back to a new scan. */
  onClosed: (message: string) => void;
  /** A paired terminal's device header (issue 22): /terminal confirms without a person's session. */
  headers?: Record<string, string>;
  /** The heading's level where the step sits (3 under a dashboard's section, 2 right under a page's h1). */
  headingLevel?: 2 | 3;
}

/**
 * A palm payment above the palm limit (decision 022): the palm named the payer and the amount is held; the
 * payer tells or types the code sent to their own phone or email, and it pays. Cancel releases the amount.
 */
export function PalmPaymentCode({
  confirmation,
  message,
  onPaid,
  onClosed,
  headers,
  headingLevel = 3,
}: PalmPaymentCodeProps) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const { t } = useTranslation('palmScan');
  const alertId = useId();
  const [otp, setOtp] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'confirm' | 'cancel' | null>(null);

  const confirm = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    if (busy !== null) return;
    if (!/^\d{6}$/.test(otp)) {
      setError(messages.invalidOtp);
      return;
    }
    setError(null);
    setBusy('confirm');
    try {
      onPaid(await confirmPalmPayment(confirmation.id, otp, headers));
    } catch (cause) {
      setBusy(null);
      // 409 or 429: this payment can no longer be paid (expired, cancelled, too many wrong codes).
      if (cause instanceof ApiError && (cause.status === 409 || cause.status === 429)) {
        onClosed(cause.message);
        return;
      }
      setError(errorMessage(cause, messages.authenticationFailedRetry));
    }
  };

  const cancel = async (): Promise<void> => {
    if (busy !== null) return;
    setError(null);
    setBusy('cancel');
    try {
      onClosed((await cancelPalmPayment(confirmation.id, headers)).message);
    } catch (cause) {
      setBusy(null);
      setError(errorMessage(cause, messages.transactionFailed));
    }
  };

  return (
    <section aria-labelledby={`${alertId}-heading`} className="space-y-4">
      <Heading id={`${alertId}-heading`} className="text-lg font-semibold text-slate-900">
        {t('code.title')}
      </Heading>
      <p role="status" className="text-slate-800">
        {translateMessage(message)}
      </p>
      <p className="text-sm text-slate-700">
        <CodeChannelBadge channel={confirmation.channel} className="mr-2" />
        {t('code.held', { to: confirmation.sent_to, amount: formatMoney(confirmation.amount) })}
      </p>
      <form noValidate className="space-y-4" onSubmit={(event) => void confirm(event)}>
        <OtpField
          label={t('code.label')}
          autoComplete="off"
          value={otp}
          invalid={error !== null}
          errorId={alertId}
          onCode={setOtp}
        />
        <FormAlert id={alertId} message={error} />
        <div className="flex flex-wrap gap-3">
          <button type="submit" className={`${primaryButtonClass} ${disabledClass}`} disabled={busy !== null}>
            {busy === 'confirm' ? t('code.confirming') : t('code.confirm')}
          </button>
          <button
            type="button"
            className={`${secondaryButtonClass} ${disabledClass}`}
            disabled={busy !== null}
            onClick={() => void cancel()}
          >
            {busy === 'cancel' ? t('code.cancelling') : t('code.cancel')}
          </button>
        </div>
      </form>
    </section>
  );
}

/**
 * The scanner's side of a palm payment that may wait for the payer's code: `waitsForCode` in `onScan` takes
 * the answer (the code step then replaces the scanner), `paidByScan` in `onSuccess` says whether that scan
 * moved the money, and `onClosed` goes back to a new scan with the server's message.
 */
export function usePalmCodeStep() {
  const [waiting, setWaiting] = useState<PalmConfirmationAnswer | null>(null);
  // Set by a scan whose payment waits for the code: the scanner's "success" is not the money yet.
  const awaitingCode = useRef(false);
  return {
    waiting,
    waitsForCode(answer: PalmPaymentOrConfirmation): answer is PalmConfirmationAnswer {
      if (!('confirmation' in answer)) return false;
      awaitingCode.current = true;
      setWaiting(answer);
      return true;
    },
    paidByScan(): boolean {
      if (!awaitingCode.current) return true;
      awaitingCode.current = false;
      return false;
    },
    onClosed(message: string): void {
      toast(message);
      setWaiting(null);
    },
  };
}
