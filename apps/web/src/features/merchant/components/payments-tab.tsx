import { TX_ID_SHOWN_CHARS } from '@hasta/contracts/constants';
import { messages } from '@hasta/contracts/messages';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

import { secondaryButtonClass } from '../../../components/ui-classes';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime, formatMoney } from '../../../lib/i18n-format';
import { statusText } from '../utils/status-text';
import { fetchPayments, merchantKeys } from '../api/merchant';

const STATUS_TONE: Record<string, string> = {
  completed: 'bg-emerald-100 text-emerald-900',
  pending: 'bg-amber-100 text-amber-900',
};

/** Payments tab (spec §2.16, §3 "Merchant payment"): what the store received, newest first. */
export function PaymentsTab() {
  const { t } = useTranslation(['merchant', 'app']);
  const payments = useQuery({
    queryKey: merchantKeys.payments,
    queryFn: ({ signal }) => fetchPayments(signal),
    refetchOnMount: 'always',
  });

  if (payments.isPending) {
    return (
      <p role="status" className="text-slate-600">
        {t('payments.loading')}
      </p>
    );
  }
  if (payments.isError) {
    return (
      <div role="alert" className="flex flex-wrap items-center gap-4 rounded-lg bg-red-50 px-4 py-3">
        <p className="font-medium text-red-800">
          {errorMessage(payments.error, messages.failedToLoadTransactions)}
        </p>
        <button type="button" className={secondaryButtonClass} onClick={() => void payments.refetch()}>
          {t('app:actions.retry')}
        </button>
      </div>
    );
  }
  if (payments.data.length === 0) {
    return <p className="text-slate-600">{t('payments.empty')}</p>;
  }
  return (
    <div className="relative overflow-x-auto" tabIndex={0}>
      <table className="w-full min-w-[36rem] text-left text-sm">
        <caption className="sr-only">{t('payments.caption')}</caption>
        <thead className="border-b border-slate-200 text-slate-600">
          <tr>
            <th scope="col" className="py-2 pr-4 font-medium">
              {t('payments.transaction')}
            </th>
            <th scope="col" className="py-2 pr-4 font-medium">
              {t('payments.amount')}
            </th>
            <th scope="col" className="py-2 pr-4 font-medium">
              {t('payments.status')}
            </th>
            <th scope="col" className="py-2 pr-4 font-medium">
              {t('payments.time')}
            </th>
            <th scope="col" className="py-2 font-medium">
              {t('payments.customer')}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {payments.data.map((payment) => (
            <tr key={payment.txid}>
              <td className="py-2 pr-4 font-mono text-slate-900">
                #{payment.txid.slice(0, TX_ID_SHOWN_CHARS)}
              </td>
              <td className="py-2 pr-4 font-semibold text-slate-900">{formatMoney(payment.amount)}</td>
              <td className="py-2 pr-4">
                <span
                  className={`rounded-full px-2 py-0.5 text-xs font-semibold ${
                    STATUS_TONE[payment.status] ?? 'bg-slate-100 text-slate-800'
                  }`}
                >
                  {statusText(payment.status)}
                </span>
              </td>
              <td className="py-2 pr-4 text-slate-700">{formatDateTime(payment.created_at)}</td>
              <td className="py-2 break-all text-slate-700">
                {payment.customer === null
                  ? '—'
                  : [payment.customer_name, payment.customer].filter(Boolean).join(' ')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
