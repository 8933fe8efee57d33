import { messages } from '@hasta/contracts/messages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { toast } from 'react-hot-toast';
import { Trans, useTranslation } from 'react-i18next';

import { Modal } from '../../../components/modal';
import { dangerButtonClass, disabledClass, secondaryButtonClass } from '../../../components/ui-classes';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime, formatMoney } from '../../../lib/i18n-format';
import { adminUsersQueryKey, fetchAdminUsersByIds } from '../api/users';
import { adminTransactionsQueryKey, deleteTransaction, fetchAdminTransactions } from '../api/wallet-admin';
import type { AdminTransaction } from '../api/wallet-admin';
import { AdminTable, cellClass, ListState, loadOnOpen } from './admin-list';

/** A completed transfer can be reversed; a reversal itself cannot. */
function reversible(tx: AdminTransaction): boolean {
  return tx.status === 'completed' && tx.kind !== 'reversal';
}

const KNOWN_KINDS = ['issuance', 'transfer', 'payment', 'reversal', 'payout'] as const;
const KNOWN_STATUSES = ['completed', 'pending', 'voided', 'reversed', 'failed'] as const;
const isOneOf = <T extends string>(list: readonly T[], value: string): value is T =>
  (list as readonly string[]).includes(value);

const COLUMNS = ['transaction', 'from', 'to', 'amount', 'status', 'date', 'actions'] as const;

/**
 * Transactions (spec §2.17, §8): the ledger's transfers. The books are append-only, so the spec's "delete"
 * is a reversal: a new transfer back, after the spec's confirm ('Delete this transaction?') explains what
 * reversing this row means (an issuance takes Hasta's value back out of the wallet; a transfer returns the
 * money to its sender).
 */
export function TransactionsSection() {
  const { t } = useTranslation(['admin', 'messages']);
  const headingId = useId();
  const queryClient = useQueryClient();
  const transactions = useQuery({
    queryKey: adminTransactionsQueryKey,
    queryFn: ({ signal }) => fetchAdminTransactions(signal),
    ...loadOnOpen,
  });
  // Names for the ids on screen, looked up by id; the list still shows when this fails.
  const partyIds = [
    ...new Set(
      (transactions.data ?? []).flatMap((tx) =>
        [tx.from_user_id, tx.to_user_id].filter((id): id is string => id !== null),
      ),
    ),
  ].sort();
  const users = useQuery({
    queryKey: [...adminUsersQueryKey, 'by-id', partyIds],
    queryFn: ({ signal }) => fetchAdminUsersByIds(partyIds, signal),
    enabled: partyIds.length > 0,
    ...loadOnOpen,
  });
  const names = new Map(
    (users.data ?? []).map((user) => [user.id, user.email ?? user.phone ?? user.username]),
  );
  const party = (id: string | null, fallback: string): string =>
    id === null ? fallback : (names.get(id) ?? id);
  const receiver = (tx: AdminTransaction): string =>
    tx.to_merchant_id === null
      ? party(tx.to_user_id, '—')
      : t('transactions.merchant', { id: tx.to_merchant_id });
  const kindText = (kind: string): string =>
    isOneOf(KNOWN_KINDS, kind) ? t(`transactions.kinds.${kind}`) : kind;
  const statusText = (status: string): string =>
    isOneOf(KNOWN_STATUSES, status) ? t(`transactions.statuses.${status}`) : status;
  const [confirming, setConfirming] = useState<AdminTransaction | null>(null);

  const reverse = useMutation({
    mutationFn: (txid: string) => deleteTransaction(txid),
    onSuccess: (answer) => {
      setConfirming(null);
      toast.success(answer.message || messages.transactionDeleted);
      void queryClient.invalidateQueries({ queryKey: adminTransactionsQueryKey });
    },
    onError: (cause) => {
      setConfirming(null);
      toast.error(
        `${t('messages:failedToDeleteTransactionPrefix')}${errorMessage(cause, cause instanceof Error ? cause.message : messages.loginRequestFailed)}`,
      );
      void queryClient.invalidateQueries({ queryKey: adminTransactionsQueryKey });
    },
  });

  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="text-2xl font-semibold text-slate-900">
        {t('transactions.heading')}
      </h2>
      <div className="mt-4 space-y-4">
        <ListState
          query={transactions}
          loadingText={t('transactions.loading')}
          failureText={messages.failedToLoadTransactions}
          emptyText={t('transactions.empty')}
          isEmpty={(data) => data.length === 0}
        />
        {transactions.isSuccess && transactions.data.length > 0 ? (
          <AdminTable columns={COLUMNS.map((column) => t(`transactions.columns.${column}`))}>
            {transactions.data.map((tx) => (
              <tr key={tx.txid}>
                <td className={`${cellClass} font-mono text-slate-900`} title={tx.txid}>
                  {tx.txid.slice(0, 8)}
                  <span className="block font-sans text-xs whitespace-nowrap text-slate-600">
                    {kindText(tx.kind)}
                  </span>
                </td>
                <td
                  className={`${cellClass} max-w-56 truncate whitespace-nowrap`}
                  title={party(tx.from_user_id, 'Hasta')}
                  translate="no"
                >
                  {party(tx.from_user_id, 'Hasta')}
                </td>
                <td
                  className={`${cellClass} max-w-56 truncate whitespace-nowrap`}
                  title={receiver(tx)}
                  translate="no"
                >
                  {receiver(tx)}
                </td>
                <td className={`${cellClass} font-semibold whitespace-nowrap text-slate-900`}>
                  {formatMoney(tx.amount)}
                </td>
                <td className={cellClass}>{statusText(tx.status)}</td>
                <td className={`${cellClass} whitespace-nowrap`}>{formatDateTime(tx.created_at)}</td>
                <td className="px-4 py-3">
                  {reversible(tx) ? (
                    <button
                      type="button"
                      className={secondaryButtonClass}
                      aria-haspopup="dialog"
                      onClick={() => setConfirming(tx)}
                    >
                      {t('transactions.reverse')}
                      <span className="sr-only">
                        {t('transactions.reverseFor', { id: tx.txid.slice(0, 8) })}
                      </span>
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </AdminTable>
        ) : null}
      </div>

      <Modal
        open={confirming !== null}
        title={t('messages:confirmDeleteTransaction')}
        onClose={() => setConfirming(null)}
      >
        {confirming === null ? null : (
          <div className="space-y-4">
            <p>
              <Trans
                t={t}
                i18nKey={
                  confirming.kind === 'issuance'
                    ? 'transactions.reverseIssuance'
                    : 'transactions.reverseTransfer'
                }
                values={{
                  id: confirming.txid.slice(0, 8),
                  amount: formatMoney(confirming.amount),
                  from: party(confirming.from_user_id, 'Hasta'),
                  to: receiver(confirming),
                }}
                components={{
                  code: <code className="font-mono text-slate-900" />,
                  strong: <strong className="text-slate-900" />,
                }}
              />
            </p>
            <p className="text-sm text-slate-700">{t('transactions.reverseRefused')}</p>
            <button
              type="button"
              className={`${dangerButtonClass} ${disabledClass}`}
              disabled={reverse.isPending}
              onClick={() => reverse.mutate(confirming.txid)}
            >
              {reverse.isPending ? t('transactions.reversing') : t('transactions.confirmReverse')}
            </button>
          </div>
        )}
      </Modal>
    </section>
  );
}
