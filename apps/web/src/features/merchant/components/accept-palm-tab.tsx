import { useId, useState } from 'react';
import type { ComponentType, FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { AmountField, FormAlert } from '../../../components/form-field';
import { cardClass, primaryButtonClass, secondaryButtonClass } from '../../../components/ui-classes';
import { formatMoney } from '../../../lib/i18n-format';
import { checkAmount } from '../utils/amount';

/**
 * The seam for the palm scanner: given the amount, it reads the customer's palm and takes the payment for the
 * signed-in store (POST /api/transaction), then calls `onPaid`; `onCancel` returns to the amount. The palm
 * feature provides it (the router composes it in); a dashboard rendered without one says so.
 */
export interface PalmPaymentScannerProps {
  amountPaise: bigint;
  /** The amount as typed and checked ("250.5"), for display and the request. */
  amountText: string;
  /** The store as the customer sees it before paying ("Pay ₹150.00 to Chai Point"). */
  payeeName: string;
  /** Paid: what arrived and from whom, in words (shown with the success). */
  onPaid: (summary: string) => void;
  onCancel: () => void;
  /** Offers a QR code for the amount instead (when the customer cannot use the palm scanner). */
  onUseQr: () => void;
}
export type PalmPaymentScanner = ComponentType<PalmPaymentScannerProps>;

type Step =
  | { kind: 'idle' }
  | { kind: 'amount' }
  | { kind: 'scan'; paise: bigint; text: string }
  | { kind: 'done'; text: string; summary: string };

interface AcceptPalmTabProps {
  scanner: PalmPaymentScanner | undefined;
  /** The store's name: the payee the customer reads before paying. */
  storeName: string;
  /** Offers a QR code for the amount instead (opens Generate QR with it). */
  onUseQr: (amountText: string) => void;
  /** A payment was taken: the figures and lists should load again. */
  onPaid: () => void;
}

/**
 * The palm payment went through: the spec's 'Transaction Successful!' and 'The payment has been processed.',
 * with the amount and who paid (masked as the store sees payers: "A. ••••3210"), read from the store's
 * newest payment of that amount once the payments list has reloaded.
 */
/** The result: the catalogue's success texts and the line that names the amount and the (masked) payer. */
function PaymentDone({ summary, onClose }: { summary: string; onClose: () => void }) {
  const { t } = useTranslation(['merchant', 'messages']);
  return (
    <section aria-labelledby="payment-done" role="status" className={`${cardClass} text-center`}>
      <h3 id="payment-done" className="text-xl font-bold text-emerald-800">
        {t('messages:transactionSuccessful')}
      </h3>
      <p className="mt-2 text-slate-700">{t('messages:paymentProcessed')}</p>
      {summary === '' ? null : (
        <p className="mt-2 text-lg font-semibold break-words text-slate-900" data-testid="payment-summary">
          {summary}
        </p>
      )}
      <button type="button" className={`${primaryButtonClass} mt-4`} onClick={onClose}>
        {t('acceptPalm.close')}
      </button>
    </section>
  );
}

/** Accept Palm tab (spec §2.16, §4 "Merchant palm payment form", §5.9): amount, palm scan, success. */
export function AcceptPalmTab({ scanner: Scanner, storeName, onUseQr, onPaid }: AcceptPalmTabProps) {
  const { t } = useTranslation(['merchant', 'messages']);
  const alertId = useId();
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const checked = checkAmount(amount);
    if (!checked.ok) {
      setError(checked.error);
      return;
    }
    setError(null);
    setStep({ kind: 'scan', paise: checked.paise, text: checked.text });
  };

  const close = (): void => {
    setAmount('');
    setStep({ kind: 'idle' });
  };

  return (
    <div className="max-w-xl space-y-6">
      <p className="text-slate-700">{t('acceptPalm.intro')}</p>
      {Scanner === undefined ? (
        <p className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950">
          {t('acceptPalm.noScanner')}
        </p>
      ) : null}

      {step.kind === 'idle' ? (
        <button
          type="button"
          className={primaryButtonClass}
          onClick={() => {
            setError(null);
            setStep({ kind: 'amount' });
          }}
        >
          {t('acceptPalm.process')}
        </button>
      ) : null}

      {step.kind === 'amount' ? (
        <section aria-labelledby="process-transaction" className={cardClass}>
          <h3 id="process-transaction" className="text-lg font-semibold text-slate-900">
            {t('acceptPalm.formTitle')}
          </h3>
          <form noValidate aria-labelledby="process-transaction" className="mt-4 space-y-4" onSubmit={submit}>
            <AmountField
              label={t('acceptPalm.amount')}
              required
              value={amount}
              invalid={error !== null}
              errorId={alertId}
              onChange={(event) => setAmount(event.target.value)}
            />
            <FormAlert id={alertId} message={error} />
            <div className="flex flex-wrap gap-3">
              <button type="submit" className={primaryButtonClass}>
                {t('acceptPalm.continue')}
              </button>
              <button type="button" className={secondaryButtonClass} onClick={close}>
                {t('acceptPalm.cancel')}
              </button>
            </div>
          </form>
        </section>
      ) : null}

      {step.kind === 'scan' ? (
        <section aria-labelledby="palm-scan-step" className={cardClass}>
          <h3 id="palm-scan-step" className="text-lg font-semibold text-slate-900">
            {t('acceptPalm.scanFor', { amount: formatMoney(step.text) })}
          </h3>
          {Scanner === undefined ? (
            <>
              <p className="mt-2 text-slate-700">
                {t('acceptPalm.noScannerStep', { amount: formatMoney(step.text) })}
              </p>
              <div className="mt-4 flex flex-wrap gap-3">
                <button type="button" className={primaryButtonClass} onClick={() => onUseQr(step.text)}>
                  {t('acceptPalm.showQr', { amount: formatMoney(step.text) })}
                </button>
                <button
                  type="button"
                  className={secondaryButtonClass}
                  onClick={() => setStep({ kind: 'amount' })}
                >
                  {t('acceptPalm.back')}
                </button>
              </div>
            </>
          ) : (
            <div className="mt-4">
              <Scanner
                amountPaise={step.paise}
                amountText={step.text}
                payeeName={storeName}
                onPaid={(summary) => {
                  setStep({ kind: 'done', text: step.text, summary });
                  onPaid();
                }}
                onCancel={() => setStep({ kind: 'amount' })}
                onUseQr={() => onUseQr(step.text)}
              />
            </div>
          )}
        </section>
      ) : null}

      {step.kind === 'done' ? <PaymentDone summary={step.summary} onClose={close} /> : null}
    </div>
  );
}
