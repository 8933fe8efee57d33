import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { secondaryButtonClass } from '../../../components/ui-classes';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { translateMessage } from '../../../lib/server-message';

/**
 * Every admin list opens with a fresh load (spec §2.17 "each tab loads its list every time it opens"): the
 * tabs unmount their panel, a closed tab's list leaves the cache at once (gcTime 0), so reopening shows the
 * loading text and fetches again rather than showing an older copy.
 */
export const loadOnOpen = { refetchOnMount: 'always', staleTime: 0, gcTime: 0 } as const;

/** An ISO time as a date with a short month, in the page's language; the raw text if it does not parse. */
export { formatShortDate as formatDate } from '../../../lib/i18n-format';

/**
 * The loading text, the failure (the spec's "Failed to load …" with the server's message) with Retry, or
 * the empty text; renders nothing once there are rows to show.
 */
export function ListState<T>({
  query,
  loadingText,
  failureText,
  emptyText,
  isEmpty,
}: {
  query: UseQueryResult<T>;
  loadingText: string;
  failureText: string;
  emptyText: string;
  isEmpty: (data: T) => boolean;
}) {
  const { t } = useTranslation('app');
  if (query.isPending) return <p className="text-slate-600">{loadingText}</p>;
  if (query.isError) {
    return (
      <div role="alert" className="flex flex-wrap items-center gap-4 rounded-lg bg-red-50 px-4 py-3">
        <p className="text-red-800">
          <strong className="font-semibold">{translateMessage(failureText)}</strong>
          {query.error instanceof ApiError ? `: ${errorMessage(query.error, '')}` : null}
        </p>
        <button type="button" className={secondaryButtonClass} onClick={() => void query.refetch()}>
          {t('actions.retry')}
        </button>
      </div>
    );
  }
  if (isEmpty(query.data)) return <p className="text-slate-600">{emptyText}</p>;
  return null;
}

/** A scrollable table with a header row; `children` are its body rows. */
export function AdminTable({
  columns,
  children,
  busy = false,
}: {
  columns: readonly string[];
  children: ReactNode;
  /** A newer page is loading: the rows shown are the previous ones. */
  busy?: boolean;
}) {
  return (
    // Positioned, so what is absolutely placed inside (screen-reader-only texts) scrolls with the table rather
    // than widening the page; focusable, so a keyboard can scroll it.
    <div
      className="relative overflow-x-auto rounded-2xl border border-slate-200"
      tabIndex={0}
      aria-busy={busy}
    >
      <table className="min-w-full divide-y divide-slate-200 text-left text-sm">
        <thead className="bg-slate-50 text-slate-700">
          <tr>
            {columns.map((label) => (
              <th key={label} scope="col" className="px-4 py-3 font-semibold whitespace-nowrap">
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 bg-white">{children}</tbody>
      </table>
    </div>
  );
}

export const cellClass = 'px-4 py-3 text-slate-700';

/** A section of the dashboard, named by its heading (a landmark region). */
export function AdminSection({
  headingId,
  title,
  actions,
  children,
}: {
  headingId: string;
  title: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={headingId}>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h2 id={headingId} className="text-2xl font-semibold text-slate-900">
          {title}
        </h2>
        {actions}
      </div>
      <div className="mt-4 space-y-4">{children}</div>
    </section>
  );
}
