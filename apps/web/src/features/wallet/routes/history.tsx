import { HISTORY_ID_SHOWN_CHARS, HISTORY_STAGGER_S } from '@hasta/contracts/constants';
import { messages } from '@hasta/contracts/messages';
import { HISTORY_PAGE_SIZE, type TransactionRecord } from '@hasta/contracts/wallet';
import type { Dispute } from '@hasta/contracts/palm-trust';
import { useInfiniteQuery } from '@tanstack/react-query';
import { motion, useReducedMotion } from 'motion/react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';

import { Page } from '../../../components/page';
import { cardClass, secondaryButtonClass } from '../../../components/ui-classes';
import { errorMessage } from '../../../lib/api-client';
import { useStoredUser } from '../../../lib/auth-storage';
import { formatDateTime, formatMoney } from '../../../lib/i18n-format';
import { fetchTransactionHistory, historyQueryKey } from '../api/wallet';
import { BackToDashboard } from '../components/back-to-dashboard';
import { LoadMore } from '../components/load-more';
import { NotMeAction, useNotMe } from '../components/not-me';
import type { NotMe } from '../components/not-me';

function shortId(value: string | null): string {
  return value === null || value === '' ? '—' : `${value.slice(0, HISTORY_ID_SHOWN_CHARS)}...`;
}

/** Transaction History (spec §2.14): the newest page, then older ones on request. */
export function HistoryRoute() {
  const { t } = useTranslation(['wallet', 'messages']);
  const user = useStoredUser();
  const userId = user === null ? null : String(user.id);
  const history = useInfiniteQuery({
    queryKey: historyQueryKey(userId ?? ''),
    queryFn: ({ signal, pageParam }) =>
      fetchTransactionHistory(userId ?? '', pageParam, HISTORY_PAGE_SIZE, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
    enabled: userId !== null,
    refetchOnMount: 'always',
  });
  const notMe = useNotMe(userId);
  const pages = history.data?.pages ?? [];
  const empty = history.isSuccess && pages.every((page) => page.items.length === 0);

  return (
    <Page title={t('history.title')} lead={t('history.lead')}>
      {userId === null ? (
        <p role="alert" className="font-medium text-red-800">
          {t('messages:userNotAuthenticated')}
        </p>
      ) : null}
      {userId !== null && history.isPending ? (
        <p role="status" className="text-slate-600">
          {t('history.loading')}
        </p>
      ) : null}
      {history.isError && pages.length === 0 ? (
        <div role="alert" className="flex flex-wrap items-center gap-4 rounded-lg bg-red-50 px-4 py-3">
          <p className="font-medium text-red-800">
            {errorMessage(history.error, messages.failedToLoadHistory)}
          </p>
          <button type="button" className={secondaryButtonClass} onClick={() => void history.refetch()}>
            {t('history.retry')}
          </button>
        </div>
      ) : null}
      {empty ? (
        <div className={`${cardClass} text-center`}>
          <p className="text-lg font-semibold text-slate-900">{t('history.none')}</p>
          <p className="mt-1 text-slate-600">{t('history.noneHint')}</p>
        </div>
      ) : null}
      {!empty && pages.length > 0 ? (
        <>
          <ul className="space-y-4">
            {pages.map((page) => (
              <Records key={page.items[0]?.id ?? 'empty'} records={page.items} notMe={notMe} />
            ))}
          </ul>
          <LoadMore
            hasMore={history.hasNextPage}
            loading={history.isFetchingNextPage}
            error={
              history.isFetchNextPageError ? errorMessage(history.error, messages.failedToLoadHistory) : null
            }
            onLoad={() => void history.fetchNextPage()}
          />
        </>
      ) : null}
      {notMe.dialog}
      <BackToDashboard />
    </Page>
  );
}

/** One page of records; each page staggers in from its own first item. */
function Records({ records, notMe }: { records: readonly TransactionRecord[]; notMe: NotMe }) {
  const reduce = useReducedMotion() === true;
  return records.map((record, index) => (
    <motion.li
      key={record.id}
      className={cardClass}
      initial={reduce ? false : { opacity: 0, y: 12 }}
      animate={{ opacity: 1, y: 0 }}
      transition={reduce ? { duration: 0 } : { duration: 0.3, delay: index * HISTORY_STAGGER_S }}
    >
      <Record record={record} dispute={notMe.disputes.get(record.id)} onNotMe={notMe.ask} />
    </motion.li>
  ));
}

function Record({
  record,
  dispute,
  onNotMe,
}: {
  record: TransactionRecord;
  dispute: Dispute | undefined;
  onNotMe: NotMe['ask'];
}) {
  const { t } = useTranslation('wallet');
  const received = record.direction === 'received';
  const completed = record.status === 'completed';
  // A completed palm payment this person made is the one kind they can report as "Not me"; once reported,
  // its dispute's state.
  const showNotMe = dispute !== undefined || (!received && record.hand_hash !== null && completed);
  return (
    <article
      aria-label={`${received ? t('history.received') : t('history.sent')} ${formatMoney(record.amount)}`}
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <p className={`text-lg font-semibold ${received ? 'text-emerald-800' : 'text-slate-900'}`}>
            {received ? t('history.received') : t('history.sent')}
          </p>
          <p className="text-sm text-slate-600">{formatDateTime(record.created_at)}</p>
        </div>
        <div className="text-right">
          <p className="text-lg font-bold text-slate-900">{formatMoney(record.amount)}</p>
          <p className={`text-sm font-semibold ${completed ? 'text-emerald-800' : 'text-slate-700'}`}>
            {t(`history.statuses.${record.status}`)}
          </p>
          {showNotMe ? (
            <NotMeAction
              payment={{ transactionId: record.id, amount: record.amount, createdAt: record.created_at }}
              dispute={dispute}
              onAsk={onNotMe}
            />
          ) : null}
        </div>
      </div>
      <dl className="mt-4 grid gap-2 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-slate-600">{t('history.from')}</dt>
          <dd className="break-all text-slate-900">{record.from_user_email ?? '—'}</dd>
        </div>
        <div>
          <dt className="text-slate-600">{t('history.to')}</dt>
          <dd className="break-all text-slate-900">{record.to_user_email ?? '—'}</dd>
        </div>
        <div>
          <dt className="text-slate-600">{t('history.blockchainTx')}</dt>
          <dd className="font-mono break-all text-slate-900">
            {shortId(record.blockchain_tx)}
            {record.blockchain_tx === null ? null : (
              <Link
                to={`/verify?id=${encodeURIComponent(record.id)}`}
                className="ml-2 font-sans font-semibold text-indigo-700 underline hover:text-indigo-900"
              >
                {t('history.receipt')}
                <span className="sr-only"> {t('history.receiptFor', { id: record.id })}</span>
              </Link>
            )}
          </dd>
        </div>
        <div>
          <dt className="text-slate-600">{t('history.handHash')}</dt>
          <dd className="font-mono break-all text-slate-900">{shortId(record.hand_hash)}</dd>
        </div>
      </dl>
    </article>
  );
}
