import { messages } from '@hasta/contracts/messages';
import { parseRupees } from '@hasta/ledger/money';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import type { ComponentType, FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Trans, useTranslation } from 'react-i18next';

import { AmountField, FormAlert } from '../../../components/form-field';
import { Page } from '../../../components/page';
import {
  cardClass,
  disabledClass,
  primaryButtonClass,
  secondaryButtonClass,
} from '../../../components/ui-classes';
import { useStoredUser } from '../../../lib/auth-storage';
import { payeeName } from '../../../lib/masking';
import { dashboardQueryKey, historyQueryKey } from '../api/wallet';
import { BackToDashboard } from '../components/back-to-dashboard';
import { ReceiveQrCard } from '../components/receive-qr-card';
import { formatMoney } from '../../../lib/i18n-format';

/** How long the palm step's success stays on screen before the page goes back (spec §4 "Receive"). */
const RECEIVED_BACK_MS = 3_000;

/**
 * The seam for the palm step: given the confirmed amount, it reads the payer's palm and takes the payment
 * for the signed-in receiver, then calls `onReceived`. The palm feature provides it (composed by the router).
 */
export interface ReceivePalmStepProps {
  /** The amount as typed and checked ("25.5"). */
  amountText: string;
  receiverEmail: string | null;
  receiverPhone: string | null;
  /** The receiver as the payer sees them before paying ("Asha K."). */
  payeeName: string;
  onReceived: () => void;
}
export type ReceivePalmStep = ComponentType<ReceivePalmStepProps>;

/**
 * Receive Money (spec §2.15, §4 "Receive"): the amount, then the palm authentication with a Return button;
 * on success the page goes back one page. The person's own payment QR code is offered beside it.
 */
export function ReceiveRoute({ palmStep: PalmStep }: { palmStep: ReceivePalmStep }) {
  const { t } = useTranslation('wallet');
  const user = useStoredUser();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const alertId = useId();
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [confirmed, setConfirmed] = useState<string | null>(null);
  const [received, setReceived] = useState(false);
  const email = user?.email ?? null;
  const phone = user?.phone ?? null;

  useEffect(() => {
    if (!received) return undefined;
    const timer = window.setTimeout(() => void navigate(-1), RECEIVED_BACK_MS);
    return () => window.clearTimeout(timer);
  }, [received, navigate]);

  const submit = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const paise = parseRupees(amount.trim());
    if (paise === null || paise <= 0n) {
      setError(messages.invalidAmount);
      return;
    }
    setError(null);
    setConfirmed(amount.trim());
  };

  return (
    <Page title={t('receive.title')} lead={t('receive.lead')}>
      <div className="max-w-lg space-y-6">
        <section aria-labelledby="receive-contact" className={cardClass}>
          <h2 id="receive-contact" className="text-lg font-semibold text-slate-900">
            {t('receive.contact')}
          </h2>
          {email === null && phone === null ? (
            <p className="mt-2 text-slate-700">{t('receive.noContact')}</p>
          ) : (
            <dl className="mt-2 space-y-1">
              {email === null ? null : (
                <div className="flex gap-2">
                  <dt className="text-slate-600">{t('receive.email')}</dt>
                  <dd className="break-all text-slate-900">{email}</dd>
                </div>
              )}
              {phone === null ? null : (
                <div className="flex gap-2">
                  <dt className="text-slate-600">{t('receive.phone')}</dt>
                  <dd className="text-slate-900">{phone}</dd>
                </div>
              )}
            </dl>
          )}
          {confirmed === null ? <ReceiveQrCard amount={null} /> : null}
        </section>
        {confirmed === null ? (
          <form noValidate className={`${cardClass} space-y-4`} onSubmit={submit}>
            <AmountField
              label={t('receive.amount')}
              required
              value={amount}
              invalid={error !== null}
              errorId={alertId}
              onChange={(event) => setAmount(event.target.value)}
            />
            <FormAlert id={alertId} message={error} />
            <button type="submit" className={`${primaryButtonClass} ${disabledClass} w-full`}>
              {t('receive.confirm')}
            </button>
          </form>
        ) : (
          <section aria-labelledby="receive-palm" className={cardClass}>
            <h2 id="receive-palm" className="text-lg font-semibold text-slate-900">
              {t('receive.palm')}
            </h2>
            <p className="mt-2 text-slate-700">
              <Trans
                t={t}
                i18nKey="receive.expected"
                values={{ amount: formatMoney(confirmed) }}
                components={{ strong: <strong /> }}
              />
            </p>
            <div className="mt-4">
              <PalmStep
                amountText={confirmed}
                receiverEmail={email}
                receiverPhone={phone}
                payeeName={user === null ? '' : payeeName(user)}
                onReceived={() => {
                  setReceived(true);
                  if (user === null) return;
                  void queryClient.invalidateQueries({ queryKey: dashboardQueryKey(String(user.id)) });
                  void queryClient.invalidateQueries({ queryKey: historyQueryKey(String(user.id)) });
                }}
              />
            </div>
            <button
              type="button"
              className={`${secondaryButtonClass} mt-4`}
              onClick={() => void navigate(-1)}
            >
              {t('receive.back')}
            </button>
            {received ? null : <ReceiveQrCard amount={confirmed} />}
          </section>
        )}
        <BackToDashboard />
      </div>
    </Page>
  );
}
