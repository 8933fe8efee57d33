import { messages } from '@hasta/contracts/messages';
import { formatInr } from '@hasta/ledger/money';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { toast } from 'react-hot-toast';

import { Modal } from '../../../components/modal';
import {
  dangerButtonClass,
  disabledClass,
  primaryButtonClass,
  secondaryButtonClass,
} from '../../../components/ui-classes';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/date-format';
import {
  decidePayout,
  fetchMerchants,
  fetchPayouts,
  merchantsQueryKey,
  payoutsQueryKey,
} from '../api/merchants-admin';
import type { PayoutAction, Withdrawal } from '../api/merchants-admin';
import { AdminSection, AdminTable, cellClass, formatDate, ListState, loadOnOpen } from './admin-list';

const MERCHANT_COLUMNS = ['Store', 'Contact email', 'Contact phone', 'Merchant since'] as const;
const WITHDRAWAL_COLUMNS = ['Store', 'Amount', 'Bank account', 'Requested', 'Status', 'Actions'] as const;

const DECISIONS: Record<
  PayoutAction,
  { title: string; explain: string; confirm: string; busy: string; failurePrefix: string }
> = {
  settle: {
    title: 'Settle this withdrawal?',
    explain:
      'Settle it once the money has been paid into the bank account: the reserved amount leaves the store.',
    confirm: 'Confirm settle',
    busy: 'Settling...',
    failurePrefix: messages.failedToSettleWithdrawalPrefix,
  },
  reject: {
    title: 'Reject this withdrawal?',
    explain: 'The reserved amount returns to the store’s balance.',
    confirm: 'Confirm reject',
    busy: 'Rejecting...',
    failurePrefix: messages.failedToRejectWithdrawalPrefix,
  },
};

/**
 * Merchants: the merchant accounts (made by approving vendor registrations) and every store's withdrawals;
 * a pending withdrawal holds its amount until the admin settles it (paid out) or rejects it (returned).
 */
export function MerchantsSection() {
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
        `${DECISIONS[input.action].failurePrefix}${errorMessage(cause, cause instanceof Error ? cause.message : messages.loginRequestFailed)}`,
      );
      void queryClient.invalidateQueries({ queryKey: payoutsQueryKey });
    },
  });

  const decision = deciding === null ? null : DECISIONS[deciding.action];

  return (
    <AdminSection headingId={headingId} title="Merchants">
      <section aria-labelledby={accountsHeadingId} className="space-y-4">
        <h3 id={accountsHeadingId} className="text-lg font-semibold text-slate-900">
          Merchant accounts
        </h3>
        <ListState
          query={merchants}
          loadingText="Loading merchants..."
          failureText={messages.failedToLoadMerchants}
          emptyText="No merchants yet: approve a vendor registration to create one."
          isEmpty={(data) => data.length === 0}
        />
        {merchants.isSuccess && merchants.data.length > 0 ? (
          <AdminTable columns={MERCHANT_COLUMNS}>
            {merchants.data.map((merchant) => (
              <tr key={merchant.id}>
                <td className={`${cellClass} font-medium text-slate-900`}>{merchant.store_name}</td>
                <td className={`${cellClass} break-all`}>{merchant.contact_email ?? '—'}</td>
                <td className={`${cellClass} whitespace-nowrap`}>{merchant.contact_phone ?? '—'}</td>
                <td className={`${cellClass} whitespace-nowrap`}>{formatDate(merchant.created_at)}</td>
              </tr>
            ))}
          </AdminTable>
        ) : null}
      </section>

      <section aria-labelledby={withdrawalsHeadingId} className="space-y-4 pt-4">
        <h3 id={withdrawalsHeadingId} className="text-lg font-semibold text-slate-900">
          Withdrawals
        </h3>
        <ListState
          query={payouts}
          loadingText="Loading withdrawals..."
          failureText={messages.failedToLoadWithdrawals}
          emptyText="No withdrawals yet."
          isEmpty={(data) => data.length === 0}
        />
        {payouts.isSuccess && payouts.data.length > 0 ? (
          <AdminTable columns={WITHDRAWAL_COLUMNS}>
            {payouts.data.map((payout) => (
              <tr key={payout.id}>
                <td className={`${cellClass} font-medium text-slate-900`}>{payout.store_name ?? '—'}</td>
                <td className={`${cellClass} font-semibold whitespace-nowrap text-slate-900`}>
                  {formatInr(payout.amount, 'en-IN')}
                </td>
                <td className={`${cellClass} whitespace-nowrap`}>•••• {payout.bank_account_last4}</td>
                <td className={`${cellClass} whitespace-nowrap`}>{formatDateTime(payout.date)}</td>
                <td className={cellClass}>{payout.status}</td>
                <td className="px-4 py-3">
                  {payout.status === 'pending' ? (
                    <div className="flex flex-wrap gap-2">
                      <button
                        type="button"
                        className={secondaryButtonClass}
                        onClick={() => setDeciding({ payout, action: 'settle' })}
                      >
                        Settle
                        <span className="sr-only"> withdrawal of {formatInr(payout.amount, 'en-IN')}</span>
                      </button>
                      <button
                        type="button"
                        className={secondaryButtonClass}
                        onClick={() => setDeciding({ payout, action: 'reject' })}
                      >
                        Reject
                        <span className="sr-only"> withdrawal of {formatInr(payout.amount, 'en-IN')}</span>
                      </button>
                    </div>
                  ) : null}
                </td>
              </tr>
            ))}
          </AdminTable>
        ) : null}
      </section>

      <Modal open={deciding !== null} title={decision?.title ?? ''} onClose={() => setDeciding(null)}>
        {deciding === null || decision === null ? null : (
          <div className="space-y-4">
            <p>
              <strong className="text-slate-900">{formatInr(deciding.payout.amount, 'en-IN')}</strong> from{' '}
              {deciding.payout.store_name ?? 'the store'} to the bank account ending{' '}
              {deciding.payout.bank_account_last4}. {decision.explain}
            </p>
            <button
              type="button"
              className={`${deciding.action === 'settle' ? primaryButtonClass : dangerButtonClass} ${disabledClass}`}
              disabled={decide.isPending}
              onClick={() => decide.mutate(deciding)}
            >
              {decide.isPending ? decision.busy : decision.confirm}
            </button>
          </div>
        )}
      </Modal>
    </AdminSection>
  );
}
