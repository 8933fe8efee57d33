import { messages } from '@hasta/contracts/messages';
import { QR_LABEL_MAX_CHARS } from '@hasta/contracts/qr';
import type { QrCode } from '@hasta/contracts/qr';
import { formatInr } from '@hasta/ledger/money';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { toast } from 'react-hot-toast';

import { AmountField, FormAlert, TextField } from '../../../components/form-field';
import { QrCodeCanvas, qrPngDataUrl } from '../../../components/qr-code-canvas';
import {
  cardClass,
  disabledClass,
  linkButtonClass,
  primaryButtonClass,
  secondaryButtonClass,
} from '../../../components/ui-classes';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/date-format';
import { createQrCode, fetchQrCodes, merchantKeys } from '../api/merchant';
import { checkOptionalAmount } from '../utils/amount';

const PRINT_CARD_ID = 'store-qr-print';
/** A downloaded code is big enough to print on an A5 stand without blurring. */
const DOWNLOAD_SIZE_PX = 1_024;
/**
 * Printing shows only the code's card: the page marks <body> while the print dialog is open, and this print
 * stylesheet hides everything else then.
 */
const PRINT_STYLE = `@media print {
  body[data-printing='qr'] * { visibility: hidden !important; }
  body[data-printing='qr'] #${PRINT_CARD_ID}, body[data-printing='qr'] #${PRINT_CARD_ID} * { visibility: visible !important; }
  body[data-printing='qr'] #${PRINT_CARD_ID} { position: absolute; inset: 0 auto auto 0; width: 100%; border: 0; box-shadow: none; }
}`;

function printQrCard(): void {
  const body = document.body;
  const done = (): void => {
    delete body.dataset['printing'];
    window.removeEventListener('afterprint', done);
  };
  body.dataset['printing'] = 'qr';
  window.addEventListener('afterprint', done);
  window.print();
}

async function downloadPng(code: QrCode): Promise<void> {
  const link = document.createElement('a');
  link.href = await qrPngDataUrl(code.uri, DOWNLOAD_SIZE_PX);
  link.download = `hasta-qr-${code.id.slice(0, 8)}.png`;
  link.click();
}

interface GenerateQrTabProps {
  storeName: string;
  /** An amount handed over from Accept Palm, to make a code for it. */
  initialAmount: string;
}

/** Generate QR tab (spec §2.16): payment codes for the store, optionally for a fixed amount; scans counted. */
export function GenerateQrTab({ storeName, initialAmount }: GenerateQrTabProps) {
  const alertId = useId();
  const titleId = useId();
  const queryClient = useQueryClient();
  const [amount, setAmount] = useState(initialAmount);
  const [label, setLabel] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<QrCode | null>(null);

  const codes = useQuery({
    queryKey: merchantKeys.qrCodes,
    queryFn: ({ signal }) => fetchQrCodes(signal),
    refetchOnMount: 'always',
  });
  const create = useMutation({
    mutationFn: createQrCode,
    onSuccess: (answer) => {
      toast.success(answer.message);
      setSelected(answer.qr_code);
      setAmount('');
      setLabel('');
      void queryClient.invalidateQueries({ queryKey: merchantKeys.all });
    },
    onError: (cause) => setError(errorMessage(cause, messages.requestFailed)),
  });

  const submit = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (create.isPending) return;
    const checked = checkOptionalAmount(amount);
    if (!checked.ok) {
      setError(checked.error);
      return;
    }
    if (Array.from(label.trim()).length > QR_LABEL_MAX_CHARS) {
      setError(messages.qrLabelTooLong);
      return;
    }
    setError(null);
    create.mutate({ amountText: checked.text, label });
  };

  // The list is the truth for scan counts; a code just made shows before the list has reloaded.
  const shown = codes.data?.find((code) => code.id === selected?.id) ?? selected ?? codes.data?.[0] ?? null;

  return (
    <div className="space-y-8">
      <style>{PRINT_STYLE}</style>
      <form
        noValidate
        aria-labelledby={titleId}
        className={`${cardClass} max-w-xl space-y-4`}
        onSubmit={submit}
      >
        <h3 id={titleId} className="text-lg font-semibold text-slate-900">
          New payment QR code
        </h3>
        <AmountField
          label="Amount (INR, optional)"
          value={amount}
          invalid={error !== null && error !== messages.qrLabelTooLong}
          errorId={alertId}
          hint="Leave empty to let the customer type the amount."
          onChange={(event) => setAmount(event.target.value)}
        />
        <TextField
          label="Label (optional)"
          maxLength={QR_LABEL_MAX_CHARS}
          value={label}
          hint="Where the code goes, e.g. Counter 2."
          onChange={(event) => setLabel(event.target.value)}
        />
        <FormAlert id={alertId} message={error} />
        <button
          type="submit"
          className={`${primaryButtonClass} ${disabledClass}`}
          disabled={create.isPending}
        >
          {create.isPending ? 'Generating...' : 'Generate QR'}
        </button>
      </form>

      {shown === null ? null : (
        <div className="flex flex-wrap items-start gap-6">
          <section
            id={PRINT_CARD_ID}
            aria-labelledby="store-qr-title"
            className={`${cardClass} w-full max-w-sm text-center`}
          >
            <h3 id="store-qr-title" className="text-xl font-bold text-slate-900">
              {storeName}
            </h3>
            <div className="mt-4">
              <QrCodeCanvas
                text={shown.uri}
                label={`Payment QR code for ${storeName}${shown.amount === null ? '' : `, ${formatInr(shown.amount, 'en-IN')}`}`}
              />
            </div>
            <p className="mt-3 text-lg font-semibold text-slate-900">
              {shown.amount === null ? 'Pay any amount' : `Pay ${formatInr(shown.amount, 'en-IN')}`}
            </p>
            {shown.label === null ? null : <p className="text-slate-700">{shown.label}</p>}
            <p className="mt-2 text-sm text-slate-600">Scan with Hasta to pay</p>
          </section>
          <div className="space-y-3">
            <p className="text-slate-700">
              Scanned <strong data-testid="shown-qr-scans">{shown.scans}</strong>{' '}
              {shown.scans === 1 ? 'time' : 'times'}
            </p>
            <div className="flex flex-wrap gap-3">
              <button type="button" className={primaryButtonClass} onClick={() => void downloadPng(shown)}>
                Download PNG
              </button>
              <button type="button" className={secondaryButtonClass} onClick={printQrCard}>
                Print
              </button>
            </div>
            <p className="max-w-sm text-xs break-all text-slate-600">
              Code text:{' '}
              <span className="font-mono" data-testid="shown-qr-uri">
                {shown.uri}
              </span>
            </p>
          </div>
        </div>
      )}

      <section aria-labelledby="store-qr-list">
        <h3 id="store-qr-list" className="text-lg font-semibold text-slate-900">
          Your QR codes
        </h3>
        {codes.isPending ? (
          <p role="status" className="mt-2 text-slate-600">
            Loading QR codes...
          </p>
        ) : null}
        {codes.isError ? (
          <div role="alert" className="mt-2 flex flex-wrap items-center gap-4 rounded-lg bg-red-50 px-4 py-3">
            <p className="font-medium text-red-800">{errorMessage(codes.error, messages.requestFailed)}</p>
            <button type="button" className={secondaryButtonClass} onClick={() => void codes.refetch()}>
              Retry
            </button>
          </div>
        ) : null}
        {codes.data?.length === 0 ? (
          <p className="mt-2 text-slate-600">No QR codes yet. Generate one above.</p>
        ) : null}
        {codes.data === undefined || codes.data.length === 0 ? null : (
          <div className="mt-3 overflow-x-auto">
            <table className="w-full min-w-[32rem] text-left text-sm">
              <caption className="sr-only">Your QR codes</caption>
              <thead className="border-b border-slate-200 text-slate-600">
                <tr>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    Label
                  </th>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    Amount
                  </th>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    Scans
                  </th>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    Created
                  </th>
                  <th scope="col" className="py-2 font-medium">
                    <span className="sr-only">Show</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {codes.data.map((code) => (
                  <tr key={code.id}>
                    <td className="py-2 pr-4 text-slate-900">{code.label ?? '—'}</td>
                    <td className="py-2 pr-4 text-slate-900">
                      {code.amount === null ? 'Any amount' : formatInr(code.amount, 'en-IN')}
                    </td>
                    <td className="py-2 pr-4 text-slate-900">{code.scans}</td>
                    <td className="py-2 pr-4 text-slate-700">{formatDateTime(code.created_at)}</td>
                    <td className="py-2">
                      {code.id === shown?.id ? (
                        <span className="text-sm text-slate-600">Shown</span>
                      ) : (
                        <button type="button" className={linkButtonClass} onClick={() => setSelected(code)}>
                          Show
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
