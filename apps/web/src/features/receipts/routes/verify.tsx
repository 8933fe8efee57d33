import { verifyReceipt, type ReceiptVerification } from '@hasta/tlog/receipt';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useSearchParams } from 'react-router';

import { Page } from '../../../components/page';
import { fetchLogKey, fetchReceipt } from '../api/receipts';

const MAX_RECEIPT_BYTES = 256 * 1024;

/**
 * /verify: checks a receipt of the verifiable log in this browser — the checkpoint's Ed25519 signature, its
 * origin, and the entry's inclusion proof — with nothing trusted from the server but the key shown (which
 * can be replaced by one from another source). `?id=<transaction id>` loads one of the user's receipts.
 */
export function VerifyRoute() {
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
      setResult({ ok: false, reason: 'the receipt is not valid JSON' });
      return;
    }
    setResult(verifyReceipt(parsed, keyText.trim()));
  }

  async function readFile(file: File | undefined) {
    if (!file) return;
    if (file.size > MAX_RECEIPT_BYTES) {
      setResult({ ok: false, reason: 'the file is too large to be a receipt' });
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
    <Page
      title="Verify a receipt"
      lead="A receipt proves that a payment or consent event is recorded in Hasta’s public, append-only log. It is checked here, in your browser: the log’s signature on its checkpoint and the proof that the entry is in it."
    >
      <div className="grid gap-6">
        {id !== null && loaded.isPending ? <p role="status">Loading your receipt…</p> : null}
        {loaded.error ? (
          <p role="alert" className="rounded-lg bg-red-50 p-3 text-red-800">
            {loaded.error.message}
          </p>
        ) : null}
        <div>
          <label htmlFor={receiptFieldId} className="block font-medium text-slate-900">
            Receipt (JSON)
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
              Open a receipt file
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
                Download receipt
              </button>
            ) : null}
          </div>
        </div>
        <div>
          <label htmlFor={keyFieldId} className="block font-medium text-slate-900">
            Log verifier key
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
          <p className="mt-1 text-sm text-slate-600">
            Filled in from this server. For an independent check, paste the key from a source you trust.
          </p>
        </div>
        <div>
          <button
            type="button"
            onClick={verify}
            disabled={receiptText.trim() === '' || keyText.trim() === ''}
            className="rounded-lg bg-indigo-700 px-5 py-2.5 font-semibold text-white hover:bg-indigo-800 disabled:opacity-60"
          >
            Verify
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
  if (result === null) return null;
  if (!result.ok) {
    return (
      <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-red-900">
        <p className="font-semibold">This receipt does not verify</p>
        <p className="mt-1">Reason: {result.reason}</p>
      </div>
    );
  }
  const { entry, checkpoint, anchor } = result;
  return (
    <div role="status" className="rounded-lg border border-green-200 bg-green-50 p-4 text-green-900">
      <p className="font-semibold">Receipt verified</p>
      <dl className="mt-2 grid gap-1 sm:grid-cols-[max-content_1fr] sm:gap-x-4">
        <dt>Event</dt>
        <dd>{entry.type}</dd>
        <dt>Time (to the minute)</dt>
        <dd>{entry.time}</dd>
        <dt>Log</dt>
        <dd className="break-all">{checkpoint.origin}</dd>
        <dt>Checkpoint size</dt>
        <dd>{checkpoint.size} entries</dd>
        <dt>Public chain</dt>
        <dd>
          {anchor.kind === 'none'
            ? 'Not anchored on a public chain: this receipt is checked against the log’s signed checkpoint only.'
            : anchor.kind === 'before-entry'
              ? 'The latest anchor predates this entry; a later receipt will carry one.'
              : `Anchored on ${anchor.chain} in transaction ${anchor.tx_hash} (check it on the chain).`}
        </dd>
      </dl>
    </div>
  );
}
