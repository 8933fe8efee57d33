import { parseRupees } from '@hasta/ledger/money';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { ComponentType, FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { AmountField, FormAlert } from '../../../components/form-field';
import { cardClass, primaryButtonClass, secondaryButtonClass } from '../../../components/ui-classes';
import { formatMoney } from '../../../lib/i18n-format';
import { fetchPayments, merchantKeys } from '../api/merchant';
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
  onPaid: () => void;
  onCancel: () => void;
  /** Offers a QR code for the amount instead (when the customer cannot use the palm scanner). */
  onUseQr: () => void;
}
export type PalmPaymentScanner = ComponentType<PalmPaymentScannerProps>;

type Step =
  | { kind: 'idle' }
  | { kind: 'amount' }
  | { kind: 'scan'; paise: bigint; text: string }
  | { kind: 'done'; paise: bigint; text: string };

interface AcceptPalmTabProps {
  scanner: PalmPaymentScanner | undefined;
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
function PaymentDone({ paise, text, onClose }: { paise: bigint; text: string; onClose: () => void }) {
  const { t } = useTranslation(['merchant', 'messages']);
  const payments = useQuery({
    queryKey: merchantKeys.payments,
    queryFn: ({ signal }) => fetchPayments(signal),
    refetchOnMount: 'always',
  });
  const payment = payments.data?.find((row) => parseRupees(row.amount) === paise);
  const payer =
    payment?.customer === null || payment?.customer === undefined
      ? null
      : [payment.customer_name, payment.customer].filter(Boolean).join(' ');
  const amount = formatMoney(text);
  return (
    <section aria-labelledby="payment-done" role="status" className={`${cardClass} text-center`}>
      <h3 id="payment-done" className="text-xl font-bold text-emerald-800">
        {t('messages:transactionSuccessful')}
      </h3>
      <p className="mt-2 text-slate-700">{t('messages:paymentProcessed')}</p>
      <p className="mt-2 text-lg font-semibold break-words text-slate-900" data-testid="palm-paid">
        {payer === null
          ? t('acceptPalm.paidAmount', { amount })
          : t('acceptPalm.paidFrom', { amount, payer })}
      </p>
      <button type="button" className={`${primaryButtonClass} mt-4`} onClick={onClose}>
        {t('acceptPalm.close')}
      </button>
    </section>
  );
}

/** Accept Palm tab (spec §2.16, §4 "Merchant palm payment form", §5.9): amount, palm scan, success. */
export function AcceptPalmTab({ scanner: Scanner, onUseQr, onPaid }: AcceptPalmTabProps) {
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
                onPaid={() => {
                  setStep({ kind: 'done', paise: step.paise, text: step.text });
                  onPaid();
                }}
                onCancel={() => setStep({ kind: 'amount' })}
                onUseQr={() => onUseQr(step.text)}
              />
            </div>
          )}
        </section>
      ) : null}

      {step.kind === 'done' ? <PaymentDone paise={step.paise} text={step.text} onClose={close} /> : null}
    </div>
  );
}
