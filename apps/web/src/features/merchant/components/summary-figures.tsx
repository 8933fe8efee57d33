import { formatInr } from '@hasta/ledger/money';
import type { MerchantSummary } from '../api/merchant';

const count = new Intl.NumberFormat('en-IN');

/** The store's figures of spec §3 "Merchant summary", every one computed by the server from the ledger. */
export function SummaryFigures({ summary }: { summary: MerchantSummary }) {
  const figures: { label: string; value: string; testId: string }[] = [
    { label: 'Balance', value: formatInr(summary.balance, 'en-IN'), testId: 'store-balance' },
    {
      label: 'Available to withdraw',
      value: formatInr(summary.available_balance, 'en-IN'),
      testId: 'store-available',
    },
    { label: 'Total Sales', value: formatInr(summary.total_sales, 'en-IN'), testId: 'store-sales' },
    { label: 'Transactions', value: count.format(summary.total_transactions), testId: 'store-transactions' },
    {
      label: 'Average Transaction',
      value: formatInr(summary.average_transaction, 'en-IN'),
      testId: 'store-average',
    },
    { label: 'Success Rate', value: `${summary.success_rate}%`, testId: 'store-success-rate' },
    { label: 'Customers', value: count.format(summary.total_customers), testId: 'store-customers' },
    {
      label: 'QR Codes Generated',
      value: count.format(summary.total_qr_codes_generated),
      testId: 'store-qr-codes',
    },
    { label: 'QR Scans', value: count.format(summary.total_qr_scans), testId: 'store-qr-scans' },
    { label: 'Palm Scans', value: count.format(summary.total_palm_scans), testId: 'store-palm-scans' },
    {
      label: 'Withdrawals',
      value: formatInr(summary.total_withdrawals, 'en-IN'),
      testId: 'store-withdrawals',
    },
  ];
  return (
    <section aria-labelledby="store-figures">
      <h2 id="store-figures" className="sr-only">
        Store figures
      </h2>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
        {figures.map((figure) => (
          <div key={figure.label} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
            <dt className="text-sm text-slate-600">{figure.label}</dt>
            <dd className="mt-1 text-xl font-bold text-slate-900" data-testid={figure.testId}>
              {figure.value}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
