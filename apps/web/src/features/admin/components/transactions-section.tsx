import { messages } from '@hasta/contracts/messages';
import { formatInr } from '@hasta/ledger/money';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { toast } from 'react-hot-toast';

import { Modal } from '../../../components/modal';
import { dangerButtonClass, disabledClass, secondaryButtonClass } from '../../../components/ui-classes';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/date-format';
import { adminUsersQueryKey, fetchAdminUsersByIds } from '../api/users';
import { adminTransactionsQueryKey, deleteTransaction, fetchAdminTransactions } from '../api/wallet-admin';
import type { AdminTransaction } from '../api/wallet-admin';
import { loadOnOpen } from './admin-list';

/** A completed transfer can be deleted (reversed); a reversal itself cannot. */
function deletable(tx: AdminTransaction): boolean {
  return tx.status === 'completed' && tx.kind !== 'reversal';
}

/** Transactions (spec §2.17, §8): the ledger's transfers, each deletable (a reversal) after a confirm. */
export function TransactionsSection() {
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
  const [confirming, setConfirming] = useState<AdminTransaction | null>(null);

  const remove = useMutation({
    mutationFn: (txid: string) => deleteTransaction(txid),
    onSuccess: (answer) => {
      setConfirming(null);
      toast.success(answer.message || messages.transactionDeleted);
      void queryClient.invalidateQueries({ queryKey: adminTransactionsQueryKey });
    },
    onError: (cause) => {
      setConfirming(null);
      toast.error(
        `${messages.failedToDeleteTransactionPrefix}${errorMessage(cause, cause instanceof Error ? cause.message : messages.loginRequestFailed)}`,
      );
      void queryClient.invalidateQueries({ queryKey: adminTransactionsQueryKey });
    },
  });

  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="text-2xl font-semibold text-slate-900">
        Transactions
      </h2>
      <div className="mt-4">
        {transactions.isPending ? <p className="text-slate-600">Loading transactions...</p> : null}
        {transactions.isError ? (
          <div role="alert" className="flex flex-wrap items-center gap-4 rounded-lg bg-red-50 px-4 py-3">
            <p className="font-medium text-red-800">
              {errorMessage(transactions.error, messages.failedToLoadTransactions)}
            </p>
            <button
              type="button"
              className={secondaryButtonClass}
              onClick={() => void transactions.refetch()}
            >
              Retry
            </button>
          </div>
        ) : null}
        {transactions.isSuccess && transactions.data.length === 0 ? (
          <p className="text-slate-600">No transactions yet.</p>
        ) : null}
        {transactions.isSuccess && transactions.data.length > 0 ? (
          <div className="overflow-x-auto rounded-2xl border border-slate-200">
            <table className="min-w-full divide-y divide-slate-200 text-left text-sm">
              <thead className="bg-slate-50 text-slate-700">
                <tr>
                  {['Transaction', 'From', 'To', 'Amount', 'Status', 'Date', 'Actions'].map((label) => (
                    <th key={label} scope="col" className="px-4 py-3 font-semibold">
                      {label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200 bg-white">
                {transactions.data.map((tx) => (
                  <tr key={tx.txid}>
                    <td className="px-4 py-3 font-mono text-slate-900" title={tx.txid}>
                      {tx.txid.slice(0, 8)}
                      <span className="block text-xs text-slate-600">{tx.kind}</span>
                    </td>
                    <td className="px-4 py-3 break-all text-slate-700">{party(tx.from_user_id, 'Hasta')}</td>
                    <td className="px-4 py-3 break-all text-slate-700">
                      {tx.to_merchant_id === null
                        ? party(tx.to_user_id, '—')
                        : `Merchant ${tx.to_merchant_id}`}
                    </td>
                    <td className="px-4 py-3 font-semibold text-slate-900">
                      {formatInr(tx.amount, 'en-IN')}
                    </td>
                    <td className="px-4 py-3 text-slate-700">{tx.status}</td>
                    <td className="px-4 py-3 text-slate-700">{formatDateTime(tx.created_at)}</td>
                    <td className="px-4 py-3">
                      {deletable(tx) ? (
                        <button
                          type="button"
                          className={secondaryButtonClass}
                          onClick={() => setConfirming(tx)}
                        >
                          Delete<span className="sr-only"> transaction {tx.txid.slice(0, 8)}</span>
                        </button>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </div>

      <Modal
        open={confirming !== null}
        title={messages.confirmDeleteTransaction}
        onClose={() => setConfirming(null)}
      >
        {confirming === null ? null : (
          <div className="space-y-4">
            <p>
              Transaction <code className="font-mono text-slate-900">{confirming.txid.slice(0, 8)}</code> of{' '}
              <strong className="text-slate-900">{formatInr(confirming.amount, 'en-IN')}</strong> is reversed:
              the money goes back to its sender.
            </p>
            <button
              type="button"
              className={`${dangerButtonClass} ${disabledClass}`}
              disabled={remove.isPending}
              onClick={() => remove.mutate(confirming.txid)}
            >
              {remove.isPending ? 'Deleting...' : 'Confirm delete'}
            </button>
          </div>
        )}
      </Modal>
    </section>
  );
}
