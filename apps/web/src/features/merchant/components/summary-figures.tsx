import { useTranslation } from 'react-i18next';

import { formatMoney, useFormatters } from '../../../lib/i18n-format';
import type { MerchantSummary } from '../api/merchant';

interface Figure {
  label: string;
  value: string;
  testId: string;
  /** A line under the value that qualifies it. */
  note?: { text: string; testId: string; attention: boolean };
}

/** The store's figures of spec §3 "Merchant summary", every one computed by the server from the ledger. */
export function SummaryFigures({ summary }: { summary: MerchantSummary }) {
  const { t } = useTranslation('merchant');
  const { number } = useFormatters();
  const pending = summary.pending_withdrawal_count;
  const figures: Figure[] = [
    { label: t('figures.balance'), value: formatMoney(summary.balance), testId: 'store-balance' },
    {
      label: t('figures.available'),
      value: formatMoney(summary.available_balance),
      testId: 'store-available',
    },
    { label: t('figures.sales'), value: formatMoney(summary.total_sales), testId: 'store-sales' },
    {
      label: t('figures.transactions'),
      value: number(summary.total_transactions),
      testId: 'store-transactions',
    },
    {
      label: t('figures.average'),
      value: formatMoney(summary.average_transaction),
      testId: 'store-average',
    },
    { label: t('figures.successRate'), value: `${summary.success_rate}%`, testId: 'store-success-rate' },
    { label: t('figures.customers'), value: number(summary.total_customers), testId: 'store-customers' },
    {
      label: t('figures.qrCodes'),
      value: number(summary.total_qr_codes_generated),
      testId: 'store-qr-codes',
    },
    { label: t('figures.qrScans'), value: number(summary.total_qr_scans), testId: 'store-qr-scans' },
    { label: t('figures.palmScans'), value: number(summary.total_palm_scans), testId: 'store-palm-scans' },
    {
      // Settled withdrawals, with what is still pending beside them (reserved, not yet paid out).
      label: `${t('figures.withdrawals')} (${t('figures.withdrawalsSettled')})`,
      value: formatMoney(summary.total_withdrawals),
      testId: 'store-withdrawals',
      note: {
        text:
          pending === 0
            ? t('figures.nonePending')
            : t('figures.pending', { count: pending, amount: formatMoney(summary.pending_withdrawals) }),
        testId: 'store-withdrawals-pending',
        attention: pending > 0,
      },
    },
  ];
  return (
    <section aria-labelledby="store-figures">
      <h2 id="store-figures" className="sr-only">
        {t('figures.heading')}
      </h2>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
        {figures.map((figure) => (
          <div
            key={figure.testId}
            className="min-w-0 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
          >
            <dt className="text-sm break-words text-slate-600">{figure.label}</dt>
            <dd className="mt-1 text-xl font-bold break-words text-slate-900" data-testid={figure.testId}>
              {figure.value}
            </dd>
            {figure.note === undefined ? null : (
              <dd
                className={`mt-1 text-sm font-medium ${figure.note.attention ? 'text-amber-900' : 'text-slate-600'}`}
                data-testid={figure.note.testId}
              >
                {figure.note.text}
              </dd>
            )}
          </div>
        ))}
      </dl>
    </section>
  );
}
