import { messages } from '@hasta/contracts/messages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { toast } from 'react-hot-toast';
import { Trans, useTranslation } from 'react-i18next';

import { AmountField, FormAlert, TextField } from '../../../components/form-field';
import { StepUpCode } from '../../../components/step-up-code';
import {
  cardClass,
  disabledClass,
  labelClass,
  primaryButtonClass,
  secondaryButtonClass,
} from '../../../components/ui-classes';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime, formatMoney } from '../../../lib/i18n-format';
import { statusText } from '../utils/status-text';
import {
  addBankAccount,
  fetchBankAccounts,
  fetchWithdrawals,
  merchantKeys,
  requestWithdrawal,
} from '../api/merchant';
import type { BankAccount } from '../api/merchant';
import { checkAmount } from '../utils/amount';

const STATUS_TONE: Record<string, string> = {
  pending: 'bg-amber-100 text-amber-900',
  settled: 'bg-emerald-100 text-emerald-900',
  rejected: 'bg-red-100 text-red-900',
  expired: 'bg-slate-200 text-slate-900',
};

/** The server refused for want of a fresh step-up (403 stepUpRequired): the page asks for the code. */
const needsStepUp = (cause: unknown) => errorMessage(cause, '') === messages.stepUpRequired;

const accountText = (account: BankAccount) =>
  `${account.holder_name} · ••••${account.account_number_last4} · ${account.ifsc}`;

/**
 * Withdraw tab (spec §2.16): money to a saved bank account. A request reserves the amount at once (it leaves
 * the available balance); an admin then settles it (paid out) or rejects it (the money comes back).
 */
export function WithdrawTab({ availableBalance }: { availableBalance: string }) {
  const { t } = useTranslation(['merchant', 'app']);
  const queryClient = useQueryClient();
  const banks = useQuery({
    queryKey: merchantKeys.bankAccounts,
    queryFn: ({ signal }) => fetchBankAccounts(signal),
    refetchOnMount: 'always',
  });
  const withdrawals = useQuery({
    queryKey: merchantKeys.withdrawals,
    queryFn: ({ signal }) => fetchWithdrawals(signal),
    refetchOnMount: 'always',
  });
  const [chosen, setChosen] = useState<string | null>(null);
  const bankId = chosen ?? banks.data?.[0]?.id ?? null;

  return (
    <div className="grid gap-8 lg:grid-cols-2">
      <div className="space-y-6">
        <WithdrawForm
          banks={banks.data ?? []}
          bankId={bankId}
          onChoose={setChosen}
          availableBalance={availableBalance}
          onDone={() => void queryClient.invalidateQueries({ queryKey: merchantKeys.all })}
        />
        {banks.isPending ? (
          <p role="status" className="text-slate-600">
            {t('withdraw.loadingBanks')}
          </p>
        ) : null}
        {banks.isError ? (
          <p role="alert" className="text-sm font-medium text-red-800">
            {errorMessage(banks.error, messages.requestFailed)}
          </p>
        ) : null}
        <AddBankAccountForm
          onAdded={(accounts) => {
            queryClient.setQueryData(merchantKeys.bankAccounts, accounts);
            const newest = accounts.at(-1);
            if (newest !== undefined) setChosen(newest.id);
          }}
        />
      </div>
      <section aria-labelledby="withdrawals-heading">
        <h3 id="withdrawals-heading" className="text-lg font-semibold text-slate-900">
          {t('withdraw.heading')}
        </h3>
        {withdrawals.isPending ? (
          <p role="status" className="mt-2 text-slate-600">
            {t('withdraw.loading')}
          </p>
        ) : null}
        {withdrawals.isError ? (
          <div role="alert" className="mt-2 flex flex-wrap items-center gap-4 rounded-lg bg-red-50 px-4 py-3">
            <p className="font-medium text-red-800">
              {errorMessage(withdrawals.error, messages.requestFailed)}
            </p>
            <button type="button" className={secondaryButtonClass} onClick={() => void withdrawals.refetch()}>
              {t('app:actions.retry')}
            </button>
          </div>
        ) : null}
        {withdrawals.data?.length === 0 ? <p className="mt-2 text-slate-600">{t('withdraw.empty')}</p> : null}
        {withdrawals.data === undefined || withdrawals.data.length === 0 ? null : (
          <ul className="mt-3 divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white">
            {withdrawals.data.map((withdrawal) => (
              <li
                key={withdrawal.id}
                aria-label={t('withdraw.itemLabel', {
                  amount: formatMoney(withdrawal.amount),
                  status: statusText(withdrawal.status),
                })}
                className="flex flex-wrap items-center justify-between gap-2 px-4 py-3"
              >
                <div>
                  <p className="font-semibold text-slate-900">{formatMoney(withdrawal.amount)}</p>
                  <p className="text-sm text-slate-600">
                    {t('withdraw.to', {
                      when: formatDateTime(withdrawal.date),
                      last4: withdrawal.bank_account_last4,
                    })}
                  </p>
                </div>
                <span
                  className={`rounded-full px-2 py-0.5 text-xs font-semibold ${
                    STATUS_TONE[withdrawal.status] ?? 'bg-slate-100 text-slate-800'
                  }`}
                >
                  {statusText(withdrawal.status)}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

interface WithdrawFormProps {
  banks: BankAccount[];
  bankId: string | null;
  onChoose: (id: string) => void;
  availableBalance: string;
  onDone: () => void;
}

function WithdrawForm({ banks, bankId, onChoose, availableBalance, onDone }: WithdrawFormProps) {
  const { t } = useTranslation('merchant');
  const alertId = useId();
  const titleId = useId();
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<string | null>(null);
  // One key per attempt: a retried request after a lost answer cannot reserve the money twice.
  const [attemptKey, setAttemptKey] = useState(() => crypto.randomUUID());
  // A withdrawal asks for the owner's code first (issue 23); once verified, the same request goes again.
  const [waiting, setWaiting] = useState<Parameters<typeof requestWithdrawal>[0] | null>(null);
  const withdraw = useMutation({
    mutationFn: requestWithdrawal,
    onSuccess: (answer) => {
      toast.success(answer.message);
      setAmount('');
      setAttemptKey(crypto.randomUUID());
      onDone();
    },
    onError: (cause, request) => {
      if (needsStepUp(cause)) setWaiting(request);
      else setError(errorMessage(cause, messages.requestFailed));
    },
  });

  const submit = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (withdraw.isPending) return;
    if (bankId === null) {
      setError(messages.chooseBankAccount);
      return;
    }
    const checked = checkAmount(amount);
    if (!checked.ok) {
      setError(checked.error);
      return;
    }
    setError(null);
    withdraw.mutate({ amountText: checked.text, bankAccountId: bankId, idempotencyKey: attemptKey });
  };

  return (
    <div className="space-y-4">
      <form noValidate aria-labelledby={titleId} className={`${cardClass} space-y-4`} onSubmit={submit}>
        <h3 id={titleId} className="text-lg font-semibold text-slate-900">
          {t('withdraw.formTitle')}
        </h3>
        <p className="text-slate-700">
          <Trans
            t={t}
            i18nKey="withdraw.available"
            values={{ amount: formatMoney(availableBalance) }}
            components={{ strong: <strong /> }}
          />
        </p>
        <fieldset>
          <legend className={labelClass}>{t('withdraw.bankAccount')}</legend>
          {banks.length === 0 ? (
            <p className="mt-1 text-sm text-slate-600">{t('withdraw.noBank')}</p>
          ) : (
            <div className="mt-2 space-y-2">
              {banks.map((bank) => (
                <label key={bank.id} className="flex items-center gap-2 text-slate-800">
                  <input
                    type="radio"
                    name="bank-account"
                    value={bank.id}
                    checked={bank.id === bankId}
                    onChange={() => {
                      onChoose(bank.id);
                      setAttemptKey(crypto.randomUUID());
                    }}
                  />
                  {accountText(bank)}
                </label>
              ))}
            </div>
          )}
        </fieldset>
        <AmountField
          label={t('withdraw.amount')}
          required
          value={amount}
          invalid={error !== null}
          errorId={alertId}
          onChange={(event) => {
            setAmount(event.target.value);
            setAttemptKey(crypto.randomUUID());
          }}
        />
        <FormAlert id={alertId} message={error} />
        <button
          type="submit"
          className={`${primaryButtonClass} ${disabledClass}`}
          disabled={withdraw.isPending}
        >
          {withdraw.isPending ? t('withdraw.processing') : t('withdraw.submit')}
        </button>
      </form>
      {waiting === null ? null : (
        <div className={cardClass}>
          <StepUpCode
            purpose="store_withdrawal"
            intro={t('withdraw.stepUp')}
            onVerified={() => {
              const request = waiting;
              setWaiting(null);
              withdraw.mutate(request);
            }}
          />
        </div>
      )}
    </div>
  );
}

function AddBankAccountForm({ onAdded }: { onAdded: (accounts: BankAccount[]) => void }) {
  const { t } = useTranslation('merchant');
  const alertId = useId();
  const titleId = useId();
  const [holder, setHolder] = useState('');
  const [number, setNumber] = useState('');
  const [ifsc, setIfsc] = useState('');
  const [error, setError] = useState<string | null>(null);
  // A new bank account asks for the owner's code first (issue 23); once verified, it is saved.
  const [waiting, setWaiting] = useState<Parameters<typeof addBankAccount>[0] | null>(null);
  const add = useMutation({
    mutationFn: addBankAccount,
    onSuccess: (accounts) => {
      toast.success(messages.bankAccountSaved);
      setHolder('');
      setNumber('');
      setIfsc('');
      onAdded(accounts);
    },
    onError: (cause, account) => {
      if (needsStepUp(cause)) setWaiting(account);
      else setError(errorMessage(cause, messages.requestFailed));
    },
  });

  const submit = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (add.isPending) return;
    const account = {
      holder_name: holder.trim(),
      account_number: number.trim(),
      ifsc: ifsc.trim().toUpperCase(),
    };
    if (account.holder_name === '' || account.account_number === '' || account.ifsc === '') {
      setError(messages.fillAllRequired);
      return;
    }
    if (!/^\d{9,18}$/.test(account.account_number)) {
      setError(messages.invalidBankAccount);
      return;
    }
    if (!/^[A-Z]{4}0[A-Z0-9]{6}$/.test(account.ifsc)) {
      setError(messages.invalidIfsc);
      return;
    }
    setError(null);
    add.mutate(account);
  };

  return (
    <div className="space-y-4">
      <form noValidate aria-labelledby={titleId} className={`${cardClass} space-y-4`} onSubmit={submit}>
        <h3 id={titleId} className="text-lg font-semibold text-slate-900">
          {t('withdraw.addTitle')}
        </h3>
        <TextField
          label={t('withdraw.holder')}
          autoComplete="name"
          value={holder}
          onChange={(e) => setHolder(e.target.value)}
        />
        <TextField
          label={t('withdraw.number')}
          inputMode="numeric"
          autoComplete="off"
          value={number}
          onChange={(e) => setNumber(e.target.value)}
        />
        <TextField
          label={t('withdraw.ifsc')}
          autoComplete="off"
          value={ifsc}
          onChange={(e) => setIfsc(e.target.value)}
        />
        <FormAlert id={alertId} message={error} />
        <button type="submit" className={`${secondaryButtonClass} ${disabledClass}`} disabled={add.isPending}>
          {add.isPending ? t('withdraw.saving') : t('withdraw.save')}
        </button>
      </form>
      {waiting === null ? null : (
        <div className={cardClass}>
          <StepUpCode
            purpose="store_bank_account"
            intro={t('withdraw.addStepUp')}
            onVerified={() => {
              const account = waiting;
              setWaiting(null);
              add.mutate(account);
            }}
          />
        </div>
      )}
    </div>
  );
}
