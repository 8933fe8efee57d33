import { messages } from '@hasta/contracts/messages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { toast } from 'react-hot-toast';
import { Trans, useTranslation } from 'react-i18next';

import { Modal } from '../../../components/modal';
import {
  dangerButtonClass,
  disabledClass,
  primaryButtonClass,
  secondaryButtonClass,
} from '../../../components/ui-classes';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime, formatMoney } from '../../../lib/i18n-format';
import {
  decidePayout,
  fetchMerchants,
  fetchPayouts,
  merchantsQueryKey,
  payoutsQueryKey,
} from '../api/merchants-admin';
import type { PayoutAction, Withdrawal } from '../api/merchants-admin';
import { AdminSection, AdminTable, cellClass, formatDate, ListState, loadOnOpen } from './admin-list';

const MERCHANT_COLUMNS = ['store', 'email', 'phone', 'since'] as const;
const WITHDRAWAL_COLUMNS = ['store', 'amount', 'account', 'requested', 'status', 'actions'] as const;
const PAYOUT_STATUSES = ['pending', 'settled', 'rejected', 'expired'] as const;

const DECISIONS = {
  settle: {
    title: 'merchants.settleTitle',
    explain: 'merchants.settleExplain',
    confirm: 'merchants.settleConfirm',
    busy: 'merchants.settling',
    failurePrefix: 'messages:failedToSettleWithdrawalPrefix',
  },
  reject: {
    title: 'merchants.rejectTitle',
    explain: 'merchants.rejectExplain',
    confirm: 'merchants.rejectConfirm',
    busy: 'merchants.rejecting',
    failurePrefix: 'messages:failedToRejectWithdrawalPrefix',
  },
} as const satisfies Record<PayoutAction, Record<string, string>>;

/**
 * Merchants: the merchant accounts (made by approving vendor registrations) and every store's withdrawals;
 * a pending withdrawal holds its amount until the admin settles it (paid out) or rejects it (returned).
 */
export function MerchantsSection() {
  const { t } = useTranslation(['admin', 'messages']);
  const payoutStatus = (status: string): string =>
    (PAYOUT_STATUSES as readonly string[]).includes(status)
      ? t(`merchants.statuses.${status as (typeof PAYOUT_STATUSES)[number]}`)
      : status;
  const headingId = useId();
  const accountsHeadingId = useId();
  const withdrawalsHeadingId = useId();
  const queryClient = useQueryClient();
  const merchants = useQuery({
    queryKey: merchantsQueryKey,
    queryFn: ({ signal }) => fetchMerchants(signal),
    ...loadOnOpen,
  });
  const payouts = useQuery({
    queryKey: payoutsQueryKey,
    queryFn: ({ signal }) => fetchPayouts(signal),
    ...loadOnOpen,
  });
  const [deciding, setDeciding] = useState<{ payout: Withdrawal; action: PayoutAction } | null>(null);

  const decide = useMutation({
    mutationFn: (input: { payout: Withdrawal; action: PayoutAction }) =>
      decidePayout(input.payout.id, input.action),
    onSuccess: (answer) => {
      setDeciding(null);
      toast.success(answer.message);
      void queryClient.invalidateQueries({ queryKey: payoutsQueryKey });
    },
    onError: (cause, input) => {
      setDeciding(null);
      toast.error(
        `${t(DECISIONS[input.action].failurePrefix)}${errorMessage(cause, cause instanceof Error ? cause.message : messages.loginRequestFailed)}`,
      );
      void queryClient.invalidateQueries({ queryKey: payoutsQueryKey });
    },
  });

  const decision = deciding === null ? null : DECISIONS[deciding.action];

  return (
    <AdminSection headingId={headingId} title={t('merchants.heading')}>
      <section aria-labelledby={accountsHeadingId} className="space-y-4">
        <h3 id={accountsHeadingId} className="text-lg font-semibold text-slate-900">
          {t('merchants.accounts')}
        </h3>
        <ListState
          query={merchants}
          loadingText={t('merchants.loading')}
          failureText={messages.failedToLoadMerchants}
          emptyText={t('merchants.empty')}
          isEmpty={(data) => data.length === 0}
        />
        {merchants.isSuccess && merchants.data.length > 0 ? (
          <AdminTable columns={MERCHANT_COLUMNS.map((column) => t(`merchants.columns.${column}`))}>
            {merchants.data.map((merchant) => (
              <tr key={merchant.id}>
                <td className={`${cellClass} font-medium text-slate-900`} translate="no">
                  {merchant.store_name}
                </td>
                <td className={`${cellClass} break-all`} translate="no">
                  {merchant.contact_email ?? '—'}
                </td>
                <td className={`${cellClass} whitespace-nowrap`} translate="no">
                  {merchant.contact_phone ?? '—'}
                </td>
                <td className={`${cellClass} whitespace-nowrap`}>{formatDate(merchant.created_at)}</td>
              </tr>
            ))}
          </AdminTable>
        ) : null}
      </section>

      <section aria-labelledby={withdrawalsHeadingId} className="space-y-4 pt-4">
        <h3 id={withdrawalsHeadingId} className="text-lg font-semibold text-slate-900">
          {t('merchants.withdrawals')}
        </h3>
        <ListState
          query={payouts}
          loadingText={t('merchants.loadingWithdrawals')}
          failureText={messages.failedToLoadWithdrawals}
          emptyText={t('merchants.noWithdrawals')}
          isEmpty={(data) => data.length === 0}
        />
        {payouts.isSuccess && payouts.data.length > 0 ? (
          <AdminTable
            columns={WITHDRAWAL_COLUMNS.map((column) => t(`merchants.withdrawalColumns.${column}`))}
          >
            {payouts.data.map((payout) => (
              <tr key={payout.id}>
                <td className={`${cellClass} font-medium text-slate-900`} translate="no">
                  {payout.store_name ?? '—'}
                </td>
                <td className={`${cellClass} font-semibold whitespace-nowrap text-slate-900`}>
                  {formatMoney(payout.amount)}
                </td>
                <td className={`${cellClass} whitespace-nowrap`}>•••• {payout.bank_account_last4}</td>
                <td className={`${cellClass} whitespace-nowrap`}>{formatDateTime(payout.date)}</td>
                <td className={cellClass}>{payoutStatus(payout.status)}</td>
                <td className="px-4 py-3">
                  {payout.status === 'pending' ? (
                    <div className="flex flex-wrap gap-2">
                      <button
                        type="button"
                        className={secondaryButtonClass}
                        onClick={() => setDeciding({ payout, action: 'settle' })}
                      >
                        {t('merchants.settle')}
                        <span className="sr-only">
                          {t('merchants.withdrawalOf', { amount: formatMoney(payout.amount) })}
                        </span>
                      </button>
                      <button
                        type="button"
                        className={secondaryButtonClass}
                        onClick={() => setDeciding({ payout, action: 'reject' })}
                      >
                        {t('merchants.reject')}
                        <span className="sr-only">
                          {t('merchants.withdrawalOf', { amount: formatMoney(payout.amount) })}
                        </span>
                      </button>
                    </div>
                  ) : null}
                </td>
              </tr>
            ))}
          </AdminTable>
        ) : null}
      </section>

      <Modal
        open={deciding !== null}
        title={decision === null ? '' : t(decision.title)}
        onClose={() => setDeciding(null)}
      >
        {deciding === null || decision === null ? null : (
          <div className="space-y-4">
            <p>
              <Trans
                t={t}
                i18nKey="merchants.decisionBody"
                values={{
                  amount: formatMoney(deciding.payout.amount),
                  store: deciding.payout.store_name ?? t('merchants.theStore'),
                  last4: deciding.payout.bank_account_last4,
                  explain: t(decision.explain),
                }}
                components={{ strong: <strong className="text-slate-900" /> }}
              />
            </p>
            <button
              type="button"
              className={`${deciding.action === 'settle' ? primaryButtonClass : dangerButtonClass} ${disabledClass}`}
              disabled={decide.isPending}
              onClick={() => decide.mutate(deciding)}
            >
              {decide.isPending ? t(decision.busy) : t(decision.confirm)}
            </button>
          </div>
        )}
      </Modal>
    </AdminSection>
  );
}
