import { messages } from '@hasta/contracts/messages';
import { parseRupees } from '@hasta/ledger/money';
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { useNavigate } from 'react-router';

import { AmountField, FormAlert } from '../../../components/form-field';
import { Page } from '../../../components/page';
import {
  cardClass,
  disabledClass,
  primaryButtonClass,
  secondaryButtonClass,
} from '../../../components/ui-classes';
import { useStoredUser } from '../../../lib/auth-storage';
import { formatInr } from '../../../lib/money-format';
import { BackToDashboard } from '../components/back-to-dashboard';
import { ReceiveQrCard } from '../components/receive-qr-card';

/** Receive Money, amount step (spec §2.15); the palm authentication step arrives with palm registration. */
export function ReceiveRoute() {
  const user = useStoredUser();
  const navigate = useNavigate();
  const alertId = useId();
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [confirmed, setConfirmed] = useState<string | null>(null);
  const email = user?.email ?? null;
  const phone = user?.phone ?? null;

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
    <Page title="Receive Money" lead="Share your email or phone number with others to receive money">
      <div className="max-w-lg space-y-6">
        <section aria-labelledby="receive-contact" className={cardClass}>
          <h2 id="receive-contact" className="text-lg font-semibold text-slate-900">
            Your contact details
          </h2>
          {email === null && phone === null ? (
            <p className="mt-2 text-slate-700">No contact information available</p>
          ) : (
            <dl className="mt-2 space-y-1">
              {email === null ? null : (
                <div className="flex gap-2">
                  <dt className="text-slate-600">Email:</dt>
                  <dd className="break-all text-slate-900">{email}</dd>
                </div>
              )}
              {phone === null ? null : (
                <div className="flex gap-2">
                  <dt className="text-slate-600">Phone:</dt>
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
              label="Expected Amount (INR)"
              required
              value={amount}
              invalid={error !== null}
              errorId={alertId}
              onChange={(event) => setAmount(event.target.value)}
            />
            <FormAlert id={alertId} message={error} />
            <button type="submit" className={`${primaryButtonClass} ${disabledClass} w-full`}>
              Confirm Receive
            </button>
          </form>
        ) : (
          <section aria-labelledby="receive-palm" className={cardClass}>
            <h2 id="receive-palm" className="text-lg font-semibold text-slate-900">
              Palm authentication
            </h2>
            <p className="mt-2 text-slate-700">
              Expected amount: <strong>{formatInr(confirmed)}</strong>
            </p>
            <p className="mt-2 text-slate-700">
              Confirming a payment with a palm scan at this step arrives with palm registration. No scan is
              made yet and no money moves from this page.
            </p>
            <ReceiveQrCard amount={confirmed} />
            <button
              type="button"
              className={`${secondaryButtonClass} mt-4`}
              onClick={() => void navigate(-1)}
            >
              Return
            </button>
          </section>
        )}
        <BackToDashboard />
      </div>
    </Page>
  );
}
