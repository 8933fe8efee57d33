import { verifyReceipt, type ReceiptVerification } from '@hasta/tlog/receipt';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';

import { Page } from '../../../components/page';
import { errorMessage } from '../../../lib/api-client';
import { fetchLogKey, fetchReceipt } from '../api/receipts';

const MAX_RECEIPT_BYTES = 256 * 1024;

/**
 * /verify: checks a receipt of the verifiable log in this browser — the checkpoint's Ed25519 signature, its
 * origin, and the entry's inclusion proof — with nothing trusted from the server but the key shown (which
 * can be replaced by one from another source). `?id=<transaction id>` loads one of the user's receipts.
 */
export function VerifyRoute() {
  const { t } = useTranslation('receipts');
  const [params] = useSearchParams();
  const id = params.get('id');
  const receiptFieldId = useId();
  const keyFieldId = useId();
  // What the person typed or opened; until then, the loaded receipt and the server's key.
  const [receiptTyped, setReceiptText] = useState<string | null>(null);
  const [keyTyped, setKeyText] = useState<string | null>(null);
  const [result, setResult] = useState<ReceiptVerification | { ok: false; reason: string } | null>(null);

  const logKey = useQuery({ queryKey: ['log', 'key'], queryFn: ({ signal }) => fetchLogKey(signal) });
  const loaded = useQuery({
    queryKey: ['log', 'receipt', id],
    queryFn: ({ signal }) => fetchReceipt(id!, signal),
    enabled: id !== null,
    retry: false,
  });

  const receiptText = receiptTyped ?? (loaded.data ? JSON.stringify(loaded.data, null, 2) : '');
  const keyText = keyTyped ?? logKey.data?.verifier_key ?? '';

  function verify() {
    let parsed: unknown;
    try {
      parsed = JSON.parse(receiptText);
    } catch {
      setResult({ ok: false, reason: t('notJson') });
      return;
    }
    setResult(verifyReceipt(parsed, keyText.trim()));
  }

  async function readFile(file: File | undefined) {
    if (!file) return;
    if (file.size > MAX_RECEIPT_BYTES) {
      setResult({ ok: false, reason: t('tooLarge') });
      return;
    }
    setReceiptText(await file.text());
    setResult(null);
  }

  function download() {
    const url = URL.createObjectURL(new Blob([receiptText], { type: 'application/json' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `hasta-receipt${id ? `-${id}` : ''}.json`;
    link.click();
    URL.revokeObjectURL(url);
  }

  return (
    <Page title={t('title')} lead={t('lead')}>
      <div className="grid gap-6">
        {id !== null && loaded.isPending ? <p role="status">{t('loading')}</p> : null}
        {loaded.error ? (
          <p role="alert" className="rounded-lg bg-red-50 p-3 text-red-800">
            {errorMessage(loaded.error, loaded.error.message)}
          </p>
        ) : null}
        <div>
          <label htmlFor={receiptFieldId} className="block font-medium text-slate-900">
            {t('receipt')}
          </label>
          <textarea
            id={receiptFieldId}
            value={receiptText}
            onChange={(event) => {
              setReceiptText(event.target.value);
              setResult(null);
            }}
            rows={10}
            spellCheck={false}
            className="mt-2 w-full rounded-lg border border-slate-300 p-3 font-mono text-sm text-slate-900"
          />
          <div className="mt-2 flex flex-wrap items-center gap-3">
            <label className="cursor-pointer rounded-lg border border-slate-300 px-3 py-2 text-sm text-slate-900 hover:bg-slate-50">
              {t('open')}
              <input
                type="file"
                accept="application/json,.json"
                className="sr-only"
                onChange={(event) => void readFile(event.target.files?.[0])}
              />
            </label>
            {receiptText !== '' ? (
              <button
                type="button"
                onClick={download}
                className="rounded-lg border border-slate-300 px-3 py-2 text-sm text-slate-900 hover:bg-slate-50"
              >
                {t('download')}
              </button>
            ) : null}
          </div>
        </div>
        <div>
          <label htmlFor={keyFieldId} className="block font-medium text-slate-900">
            {t('key')}
          </label>
          <input
            id={keyFieldId}
            value={keyText}
            onChange={(event) => {
              setKeyText(event.target.value);
              setResult(null);
            }}
            spellCheck={false}
            className="mt-2 w-full rounded-lg border border-slate-300 p-3 font-mono text-sm text-slate-900"
          />
          <p className="mt-1 text-sm text-slate-600">{t('keyHint')}</p>
        </div>
        <div>
          <button
            type="button"
            onClick={verify}
            disabled={receiptText.trim() === '' || keyText.trim() === ''}
            className="rounded-lg bg-indigo-700 px-5 py-2.5 font-semibold text-white hover:bg-indigo-800 disabled:opacity-60"
          >
            {t('verify')}
          </button>
        </div>
        <VerificationResult result={result} />
      </div>
    </Page>
  );
}

function VerificationResult({
  result,
}: {
  result: ReceiptVerification | { ok: false; reason: string } | null;
}) {
  const { t } = useTranslation('receipts');
  if (result === null) return null;
  if (!result.ok) {
    return (
      <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-red-900">
        <p className="font-semibold">{t('failed')}</p>
        <p className="mt-1">{t('reason', { reason: result.reason })}</p>
      </div>
    );
  }
  const { entry, checkpoint, anchor } = result;
  return (
    <div role="status" className="rounded-lg border border-green-200 bg-green-50 p-4 text-green-900">
      <p className="font-semibold">{t('verified')}</p>
      <dl className="mt-2 grid gap-1 sm:grid-cols-[max-content_1fr] sm:gap-x-4">
        <dt>{t('event')}</dt>
        <dd>{entry.type}</dd>
        <dt>{t('time')}</dt>
        <dd>{entry.time}</dd>
        <dt>{t('log')}</dt>
        <dd className="break-all">{checkpoint.origin}</dd>
        <dt>{t('size')}</dt>
        <dd>{t('entries', { size: checkpoint.size })}</dd>
        <dt>{t('chain')}</dt>
        <dd>
          {anchor.kind === 'none'
            ? t('notAnchored')
            : anchor.kind === 'before-entry'
              ? t('beforeEntry')
              : t('anchored', { chain: anchor.chain, tx: anchor.tx_hash })}
        </dd>
      </dl>
    </div>
  );
}
