import { messages } from '@hasta/contracts/messages';
import { QR_LABEL_MAX_CHARS } from '@hasta/contracts/qr';
import type { QrCode } from '@hasta/contracts/qr';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { toast } from 'react-hot-toast';
import { Trans, useTranslation } from 'react-i18next';

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
import { formatDateTime, formatMoney } from '../../../lib/i18n-format';
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
  const { t } = useTranslation(['merchant', 'app']);
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
          {t('qr.newTitle')}
        </h3>
        <AmountField
          label={t('qr.amount')}
          value={amount}
          invalid={error !== null && error !== messages.qrLabelTooLong}
          errorId={alertId}
          hint={t('qr.amountHint')}
          onChange={(event) => setAmount(event.target.value)}
        />
        <TextField
          label={t('qr.label')}
          maxLength={QR_LABEL_MAX_CHARS}
          value={label}
          hint={t('qr.labelHint')}
          onChange={(event) => setLabel(event.target.value)}
        />
        <FormAlert id={alertId} message={error} />
        <button
          type="submit"
          className={`${primaryButtonClass} ${disabledClass}`}
          disabled={create.isPending}
        >
          {create.isPending ? t('qr.generating') : t('qr.generate')}
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
                label={
                  shown.amount === null
                    ? t('qr.canvasLabel', { store: storeName })
                    : t('qr.canvasLabelAmount', { store: storeName, amount: formatMoney(shown.amount) })
                }
              />
            </div>
            <p className="mt-3 text-lg font-semibold text-slate-900">
              {shown.amount === null ? t('qr.payAny') : t('qr.pay', { amount: formatMoney(shown.amount) })}
            </p>
            {shown.label === null ? null : (
              <p className="text-slate-700" translate="no">
                {shown.label}
              </p>
            )}
            <p className="mt-2 text-sm text-slate-600">{t('qr.scanWith')}</p>
          </section>
          <div className="space-y-3">
            <p className="text-slate-700">
              <Trans
                t={t}
                i18nKey="qr.scanned"
                count={shown.scans}
                components={{ strong: <strong data-testid="shown-qr-scans" /> }}
              />
            </p>
            <div className="flex flex-wrap gap-3">
              <button type="button" className={primaryButtonClass} onClick={() => void downloadPng(shown)}>
                {t('qr.download')}
              </button>
              <button type="button" className={secondaryButtonClass} onClick={printQrCard}>
                {t('qr.print')}
              </button>
            </div>
            <p className="max-w-sm text-xs break-all text-slate-600">
              {t('qr.codeText')}{' '}
              <span className="font-mono" data-testid="shown-qr-uri" translate="no">
                {shown.uri}
              </span>
            </p>
          </div>
        </div>
      )}

      <section aria-labelledby="store-qr-list">
        <h3 id="store-qr-list" className="text-lg font-semibold text-slate-900">
          {t('qr.yours')}
        </h3>
        {codes.isPending ? (
          <p role="status" className="mt-2 text-slate-600">
            {t('qr.loading')}
          </p>
        ) : null}
        {codes.isError ? (
          <div role="alert" className="mt-2 flex flex-wrap items-center gap-4 rounded-lg bg-red-50 px-4 py-3">
            <p className="font-medium text-red-800">{errorMessage(codes.error, messages.requestFailed)}</p>
            <button type="button" className={secondaryButtonClass} onClick={() => void codes.refetch()}>
              {t('app:actions.retry')}
            </button>
          </div>
        ) : null}
        {codes.data?.length === 0 ? <p className="mt-2 text-slate-600">{t('qr.empty')}</p> : null}
        {codes.data === undefined || codes.data.length === 0 ? null : (
          <div className="relative mt-3 overflow-x-auto" tabIndex={0}>
            <table className="w-full min-w-[32rem] text-left text-sm">
              <caption className="sr-only">{t('qr.yours')}</caption>
              <thead className="border-b border-slate-200 text-slate-600">
                <tr>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    {t('qr.columnLabel')}
                  </th>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    {t('qr.columnAmount')}
                  </th>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    {t('qr.columnScans')}
                  </th>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    {t('qr.columnCreated')}
                  </th>
                  <th scope="col" className="py-2 font-medium">
                    <span className="sr-only">{t('qr.show')}</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {codes.data.map((code) => (
                  <tr key={code.id}>
                    <td className="py-2 pr-4 text-slate-900" translate="no">
                      {code.label ?? '—'}
                    </td>
                    <td className="py-2 pr-4 text-slate-900">
                      {code.amount === null ? t('qr.anyAmount') : formatMoney(code.amount)}
                    </td>
                    <td className="py-2 pr-4 text-slate-900">{code.scans}</td>
                    <td className="py-2 pr-4 text-slate-700">{formatDateTime(code.created_at)}</td>
                    <td className="py-2">
                      {code.id === shown?.id ? (
                        <span className="text-sm text-slate-600">{t('qr.shown')}</span>
                      ) : (
                        <button type="button" className={linkButtonClass} onClick={() => setSelected(code)}>
                          {t('qr.show')}
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
