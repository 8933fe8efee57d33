import { useTranslation } from 'react-i18next';
import {
  COPY_CONFIRMATION_MS,
  HASH_LEADING_CHARS,
  HASH_TRAILING_CHARS,
  TX_ID_SHOWN_CHARS,
} from '@hasta/contracts/constants';
import { messages } from '@hasta/contracts/messages';
import { transactionStatusSchema } from '@hasta/contracts/wallet';
import type { HistoryEntry } from '@hasta/contracts/wallet';
import { useEffect, useState } from 'react';
import { toast } from 'react-hot-toast';

import { secondaryButtonClass } from '../../../components/ui-classes';
import { formatDateTime, formatMoney } from '../../../lib/i18n-format';
import { translateMessage } from '../../../lib/server-message';
import { NotMeAction } from './not-me';
import type { NotMe } from './not-me';

/** 10 leading + '…' + 6 trailing characters (spec §2.11, §9). */
export function shortenHash(hash: string): string {
  if (hash.length <= HASH_LEADING_CHARS + HASH_TRAILING_CHARS) return hash;
  return `${hash.slice(0, HASH_LEADING_CHARS)}…${hash.slice(-HASH_TRAILING_CHARS)}`;
}

interface Viewer {
  email: string | null;
  phone: string | null;
}

function isMine(party: string | null, viewer: Viewer): boolean {
  return party !== null && (party === viewer.email || party === viewer.phone);
}

/** `notMe`: palm payments the viewer made get "Not me" (or their dispute's state). */
export function HistoryList({
  entries,
  viewer,
  notMe,
}: {
  entries: readonly HistoryEntry[];
  viewer: Viewer;
  notMe?: NotMe;
}) {
  return (
    <ul className="divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white">
      {entries.map((entry, index) => (
        <li key={`${entry.txid ?? entry.type}-${entry.created_at}-${index}`} className="px-4 py-3">
          <HistoryRow entry={entry} viewer={viewer} notMe={notMe} />
        </li>
      ))}
    </ul>
  );
}

const KNOWN_STATUSES = transactionStatusSchema.options;

function StatusText({ status }: { status: string }) {
  const { t } = useTranslation('wallet');
  const known = KNOWN_STATUSES.find((name) => name === status.toLowerCase());
  const completed = known === 'completed';
  return (
    <span className={`text-sm font-semibold ${completed ? 'text-emerald-800' : 'text-slate-700'}`}>
      {completed ? t('history.completed') : known === undefined ? status : t(`history.statuses.${known}`)}
    </span>
  );
}

function HistoryRow({
  entry,
  viewer,
  notMe,
}: {
  entry: HistoryEntry;
  viewer: Viewer;
  notMe: NotMe | undefined;
}) {
  const { t } = useTranslation('wallet');
  const when = <span className="text-sm text-slate-600">{formatDateTime(entry.created_at)}</span>;
  if (entry.type === 'palm_registration') {
    return (
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <p className="font-semibold text-slate-900">{t('history.palmRegistered')}</p>
          {when}
        </div>
        <StatusText status="Completed" />
      </div>
    );
  }
  if (entry.type === 'palm_manual_scan') {
    return (
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <p className="font-semibold text-slate-900">{t('history.manualScan', { status: entry.status })}</p>
          {when}
        </div>
        {entry.similarity === null ? null : (
          <span className="text-sm text-slate-700">
            {t('history.similarity', { value: entry.similarity.toFixed(1) })}
          </span>
        )}
      </div>
    );
  }
  const status = entry.status.trim() === '' ? 'Completed' : entry.status;
  const received = isMine(entry.receiver, viewer);
  const sent = !received && isMine(entry.sender, viewer);
  const sign = received ? '+' : sent ? '-' : '';
  const dispute = entry.txid === null ? undefined : notMe?.disputes.get(entry.txid);
  // The person's disputes are all about palm payments they made; a completed one they sent that is not
  // reported yet (its hand hash, where the server gives it) can be.
  const reportable =
    sent &&
    entry.txid !== null &&
    entry.amount !== null &&
    (entry.hand_hash ?? null) !== null &&
    status.toLowerCase() === 'completed';
  const showNotMe = dispute !== undefined || reportable;
  return (
    <div className="flex flex-wrap items-start justify-between gap-3">
      <div className="min-w-0">
        <p className="font-semibold text-slate-900">
          {t('history.transaction', { id: (entry.txid ?? '').slice(0, TX_ID_SHOWN_CHARS) })}
        </p>
        <p className="text-sm text-slate-700">
          {received
            ? t('history.fromParty', { party: entry.sender ?? '—' })
            : t('history.toParty', { party: entry.receiver ?? '—' })}
        </p>
        {when}
        {entry.tx === null ? null : <CopyHash hash={entry.tx} />}
      </div>
      <div className="text-right">
        <p
          className={`font-semibold ${received ? 'text-emerald-800' : 'text-slate-900'}`}
          data-testid="history-amount"
        >
          {sign}
          {entry.amount === null ? '—' : formatMoney(entry.amount)}
        </p>
        <StatusText status={status} />
        {notMe !== undefined && showNotMe ? (
          <div>
            <NotMeAction
              payment={{
                transactionId: entry.txid ?? '',
                amount: entry.amount ?? '',
                createdAt: entry.created_at,
              }}
              dispute={dispute}
              onAsk={notMe.ask}
            />
          </div>
        ) : null}
      </div>
    </div>
  );
}

function CopyHash({ hash }: { hash: string }) {
  const { t } = useTranslation('wallet');
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return undefined;
    const timer = window.setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
    return () => window.clearTimeout(timer);
  }, [copied]);
  return (
    <p className="mt-1 flex flex-wrap items-center gap-2 text-sm">
      <span className="text-slate-600">{t('history.hash')}</span>
      <code className="rounded bg-slate-100 px-2 py-0.5 font-mono text-slate-900" title={hash}>
        {shortenHash(hash)}
      </code>
      <button
        type="button"
        className={`${secondaryButtonClass} px-2 py-1 text-xs`}
        onClick={() => {
          navigator.clipboard.writeText(hash).then(
            () => setCopied(true),
            () => toast.error(t('history.copyFailed')),
          );
        }}
      >
        {copied ? translateMessage(messages.copied) : t('history.copy')}
        <span className="sr-only"> {t('history.hashName')}</span>
      </button>
    </p>
  );
}
