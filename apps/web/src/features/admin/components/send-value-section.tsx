import { messages } from '@hasta/contracts/messages';
import { parseRupees } from '@hasta/ledger/money';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { toast } from 'react-hot-toast';
import { useTranslation } from 'react-i18next';

import { AmountField, FormAlert } from '../../../components/form-field';
import {
  cardClass,
  disabledClass,
  inputClass,
  labelClass,
  primaryButtonClass,
  secondaryButtonClass,
} from '../../../components/ui-classes';
import { errorMessage } from '../../../lib/api-client';
import { formatMoney } from '../../../lib/i18n-format';
import { adminUsersQueryKey, fetchAdminUsersPage } from '../api/users';
import { assignBalance } from '../api/wallet-admin';
import { loadOnOpen } from './admin-list';

const PICKER_SIZE = 50;

/** Send Value (spec §2.17, §5.4, §8): pick a user, enter an amount. */
export function SendValueSection() {
  const { t } = useTranslation('admin');
  const headingId = useId();
  const selectId = useId();
  const alertId = useId();
  const queryClient = useQueryClient();
  const searchId = useId();
  const [draft, setDraft] = useState('');
  const [search, setSearch] = useState('');
  // The picker lists one page: the newest users, or those matching the search.
  const users = useQuery({
    queryKey: [...adminUsersQueryKey, 'picker', search],
    queryFn: ({ signal }) => fetchAdminUsersPage({ q: search, limit: PICKER_SIZE }, signal),
    placeholderData: keepPreviousData,
    ...loadOnOpen,
  });
  const [userId, setUserId] = useState('');
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<string | null>(null);

  const send = useMutation({
    mutationFn: (input: { userId: string; amount: string }) => assignBalance(input.userId, input.amount),
    onSuccess: (answer) => {
      toast.success(answer.message || messages.valueSent);
      setUserId('');
      setAmount('');
      void queryClient.invalidateQueries({ queryKey: adminUsersQueryKey });
    },
    onError: (cause) => {
      const text = errorMessage(cause, messages.failedToSendValue);
      setError(text);
      toast.error(text);
    },
  });

  const submit = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    setError(null);
    if (userId === '') {
      setError(messages.chooseUser);
      return;
    }
    const trimmed = amount.trim();
    if (trimmed === '') {
      setError(messages.amountRequired);
      return;
    }
    const paise = parseRupees(trimmed);
    if (paise === null || paise <= 0n) {
      setError(/^\d*\.\d{3,}$/.test(trimmed) ? messages.amountTooPrecise : messages.amountPositive);
      return;
    }
    send.mutate({ userId, amount: trimmed });
  };

  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="text-2xl font-semibold text-slate-900">
        {t('sendValue.heading')}
      </h2>
      <form
        role="search"
        aria-label={t('sendValue.searchLabel')}
        className="mt-4 flex max-w-lg flex-wrap items-end gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          setSearch(draft.trim());
          setUserId('');
        }}
      >
        <div className="flex-1">
          <label htmlFor={searchId} className={labelClass}>
            {t('sendValue.find')}
          </label>
          <input
            id={searchId}
            type="search"
            className={inputClass}
            value={draft}
            maxLength={100}
            autoComplete="off"
            onChange={(event) => setDraft(event.target.value)}
          />
        </div>
        <button type="submit" className={secondaryButtonClass}>
          {t('sendValue.findButton')}
        </button>
      </form>
      <form noValidate className={`${cardClass} mt-4 max-w-lg space-y-4`} onSubmit={submit}>
        <div>
          <label htmlFor={selectId} className={labelClass}>
            {t('sendValue.user')}
          </label>
          <select
            id={selectId}
            className={inputClass}
            value={userId}
            required
            onChange={(event) => setUserId(event.target.value)}
          >
            <option value="">
              {users.isPending
                ? t('sendValue.loadingUsers')
                : users.data?.users.length === 0
                  ? t('sendValue.noMatch')
                  : t('sendValue.choose')}
            </option>
            {(users.data?.users ?? []).map((user) => (
              <option key={user.id} value={user.id} translate="no">
                {user.username} ({user.email ?? user.phone ?? user.id}) · {formatMoney(user.balance)}
              </option>
            ))}
          </select>
          {users.isError ? (
            <p className="mt-1 text-sm text-red-800">
              {errorMessage(users.error, messages.failedToLoadUsers)}
            </p>
          ) : null}
        </div>
        <AmountField
          label={t('sendValue.amount')}
          required
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
        />
        <FormAlert id={alertId} message={error} />
        <button type="submit" className={`${primaryButtonClass} ${disabledClass}`} disabled={send.isPending}>
          {send.isPending ? t('sendValue.sending') : t('sendValue.submit')}
        </button>
      </form>
    </section>
  );
}
