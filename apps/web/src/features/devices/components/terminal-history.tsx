import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

import { cardClass } from '../../../components/ui-classes';
import { fetchTerminalPayments } from '../../../lib/devices-api';
import { formatDateTime, formatMoney } from '../../../lib/i18n-format';
import { terminalKeys } from '../api/terminal';

const KNOWN_STATUSES = [
  'completed',
  'pending',
  'voided',
  'reversed',
  'failed',
  'settled',
  'rejected',
  'expired',
];

/** This terminal's last payments (GET /api/devices/me/payments), newest first. */
export function TerminalHistory({ token }: { token: string }) {
  const { t } = useTranslation(['devices', 'merchant']);
  const payments = useQuery({
    queryKey: terminalKeys.payments(token),
    queryFn: ({ signal }) => fetchTerminalPayments(token, signal),
  });
  const status = (value: string): string =>
    KNOWN_STATUSES.includes(value) ? t(`merchant:statuses.${value as 'completed'}`) : value;

  return (
    <section aria-labelledby="terminal-history" className={`${cardClass} p-4 sm:p-6`}>
      <h2 id="terminal-history" className="text-xl font-bold text-slate-900">
        {t('terminal.historyTitle')}
      </h2>
      {payments.isPending ? (
        <p role="status" className="mt-3 text-slate-600">
          {t('terminal.historyLoading')}
        </p>
      ) : null}
      {payments.isError ? <p className="mt-3 text-red-800">{t('terminal.historyError')}</p> : null}
      {payments.data !== undefined && payments.data.payments.length === 0 ? (
        <p className="mt-3 text-slate-700">{t('terminal.historyEmpty')}</p>
      ) : null}
      {payments.data !== undefined && payments.data.payments.length > 0 ? (
        <ol className="mt-3 divide-y divide-slate-200" data-testid="terminal-history-list">
          {payments.data.payments.map((payment) => (
            <li
              key={payment.txid}
              className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-3"
            >
              <span className="text-xl font-semibold text-slate-900">{formatMoney(payment.amount)}</span>
              <span className="text-sm text-slate-700">{formatDateTime(payment.created_at)}</span>
              <span className="w-full text-sm break-words text-slate-700">
                <span translate="no">
                  {[payment.customer_name, payment.customer].filter(Boolean).join(' ')}
                </span>
                {payment.status === 'completed' ? '' : ` · ${status(payment.status)}`}
              </span>
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  );
}
