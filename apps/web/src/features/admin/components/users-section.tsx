import { ADMIN_USERS_PAGE_SIZE_DEFAULT } from '@hasta/contracts/auth';
import { COPY_CONFIRMATION_MS } from '@hasta/contracts/constants';
import { messages } from '@hasta/contracts/messages';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import { Link } from 'react-router';
import { toast } from 'react-hot-toast';
import { Trans, useTranslation } from 'react-i18next';

import { Modal } from '../../../components/modal';
import {
  dangerButtonClass,
  disabledClass,
  inputClass,
  labelClass,
  primaryButtonClass,
  secondaryButtonClass,
} from '../../../components/ui-classes';
import { errorMessage } from '../../../lib/api-client';
import { formatMoney, useFormatters } from '../../../lib/i18n-format';
import { adminUsersQueryKey, fetchAdminUsersPage, fetchAllAdminUsers, resetUserPassword } from '../api/users';
import type { AdminUserRow, UsersPageRequest } from '../api/users';
import { downloadCsv, USERS_CSV_FILE_NAME, usersCsv } from '../utils/users-csv';
import { AdminSection, AdminTable, cellClass, formatDate, ListState, loadOnOpen } from './admin-list';
import { RewardsSummary } from './rewards-summary';

const PAGE_SIZES = [10, 25, 50, 100] as const;

/** A readable name for a user in dialogs: username, with the email or phone. */
function describeUser(user: AdminUserRow): string {
  const contact = user.email ?? user.phone;
  return contact === null ? user.username : `${user.username} (${contact})`;
}

type Hand = 'left' | 'right';

/** Spec §2.17: the palm page in admin mode, registering one hand of this user. */
export function palmRegisterHref(user: AdminUserRow, hand: Hand): string {
  const params = new URLSearchParams({ user_id: user.id });
  if (user.email !== null) params.set('user_email', user.email);
  params.set('admin_mode', 'true');
  params.set('hand', hand);
  return `/palm-register?${params.toString()}`;
}

/**
 * The Users tab (spec §2.17): users (admins excluded by the server) searched and paged on the server, with
 * their ledger balance and palm status, per-hand Register palm links, password reset and the CSV export.
 */
export function UsersSection() {
  const { t } = useTranslation(['admin', 'messages']);
  const numberFormat = { format: useFormatters().number };
  const headingId = useId();
  const searchId = useId();
  const hintId = useId();
  const pageSizeId = useId();
  const [draft, setDraft] = useState('');
  const [search, setSearch] = useState('');
  const [pageSize, setPageSize] = useState<number>(ADMIN_USERS_PAGE_SIZE_DEFAULT);
  // The cursors of the pages after the first, in order: going back pops one.
  const [cursors, setCursors] = useState<readonly string[]>([]);
  const cursor = cursors.at(-1);
  const request: UsersPageRequest = {
    q: search,
    // The default page size stays out of the URL.
    ...(pageSize === ADMIN_USERS_PAGE_SIZE_DEFAULT ? {} : { limit: pageSize }),
    ...(cursor === undefined ? {} : { cursor }),
  };
  const users = useQuery({
    queryKey: [...adminUsersQueryKey, 'page', request],
    queryFn: ({ signal }) => fetchAdminUsersPage(request, signal),
    placeholderData: keepPreviousData,
    ...loadOnOpen,
  });

  const [confirming, setConfirming] = useState<AdminUserRow | null>(null);
  const [result, setResult] = useState<{ user: AdminUserRow; temporaryPassword: string } | null>(null);
  const reset = useMutation({
    mutationFn: (user: AdminUserRow) => resetUserPassword(user.id),
    onSuccess: (answer, user) => {
      setConfirming(null);
      // Shown in a dialog with a Copy button rather than a toast that vanishes after 3.5 s.
      setResult({ user, temporaryPassword: answer.temporary_password });
    },
    onError: (error) => {
      setConfirming(null);
      toast.error(
        `${t('messages:failedToResetPasswordPrefix')}${errorMessage(error, error instanceof Error ? error.message : messages.loginRequestFailed)}`,
      );
    },
  });

  const [exported, setExported] = useState<number | null>(null);
  const exportCsv = useMutation({
    mutationFn: () => fetchAllAdminUsers(search, setExported),
    onMutate: () => setExported(0),
    onSuccess: ({ users: all, complete }) => {
      downloadCsv(usersCsv(all), USERS_CSV_FILE_NAME);
      if (complete) toast.success(messages.usersExported);
      else toast.error(messages.usersExportTruncated);
    },
    onError: (error) => {
      toast.error(
        `${t('messages:failedToExportUsersPrefix')}${errorMessage(error, error instanceof Error ? error.message : messages.loginRequestFailed)}`,
      );
    },
    onSettled: () => setExported(null),
  });

  const submitSearch = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    setSearch(draft.trim());
    setCursors([]);
  };
  const clearSearch = (): void => {
    setDraft('');
    setSearch('');
    setCursors([]);
  };

  const page = users.isSuccess ? users.data : undefined;
  const firstRow = cursors.length * pageSize + 1;

  return (
    <AdminSection
      headingId={headingId}
      title={t('tabs.users')}
      actions={
        <button
          type="button"
          className={`${secondaryButtonClass} ${disabledClass}`}
          disabled={exportCsv.isPending}
          onClick={() => exportCsv.mutate()}
        >
          {exportCsv.isPending
            ? t('users.exporting', { number: numberFormat.format(exported ?? 0) })
            : t('users.export')}
        </button>
      }
    >
      <RewardsSummary />
      <form
        role="search"
        aria-label={t('users.searchLabel')}
        className="flex flex-wrap items-end gap-3"
        onSubmit={submitSearch}
      >
        <div className="min-w-64 flex-1">
          <label htmlFor={searchId} className={labelClass}>
            {t('users.search')}
          </label>
          <input
            id={searchId}
            type="search"
            className={inputClass}
            value={draft}
            maxLength={100}
            autoComplete="off"
            aria-describedby={hintId}
            onChange={(event) => setDraft(event.target.value)}
          />
        </div>
        <button type="submit" className={primaryButtonClass}>
          {t('users.searchButton')}
        </button>
        {search === '' ? null : (
          <button type="button" className={secondaryButtonClass} onClick={clearSearch}>
            {t('users.clear')}
          </button>
        )}
        <div>
          <label htmlFor={pageSizeId} className={labelClass}>
            {t('users.rowsPerPage')}
          </label>
          <select
            id={pageSizeId}
            className={inputClass}
            value={pageSize}
            onChange={(event) => {
              setPageSize(Number(event.target.value));
              setCursors([]);
            }}
          >
            {PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </div>
        <p id={hintId} className="w-full text-sm text-slate-600">
          {t('users.hint')}
        </p>
      </form>

      <ListState
        query={users}
        loadingText={t('users.loading')}
        failureText={messages.failedToLoadUsers}
        emptyText={search === '' ? t('users.empty') : t('users.noMatch', { search })}
        isEmpty={(data) => data.users.length === 0}
      />

      {page !== undefined && page.users.length > 0 ? (
        <>
          <p role="status" className="text-sm text-slate-700">
            {t('users.showing', {
              first: numberFormat.format(firstRow),
              last: numberFormat.format(firstRow + page.users.length - 1),
              more: page.total_exact ? '' : t('users.moreThan'),
              total: numberFormat.format(page.total),
              noun: page.total === 1 && page.total_exact ? t('users.user') : t('users.usersNoun'),
              matching: search === '' ? '' : t('users.matching', { search }),
            })}
          </p>
          <UsersTable users={page.users} busy={users.isPlaceholderData} onReset={setConfirming} />
          <nav aria-label={t('users.pagesLabel')} className="flex flex-wrap gap-3">
            <button
              type="button"
              className={`${secondaryButtonClass} ${disabledClass}`}
              disabled={cursors.length === 0 || users.isPlaceholderData}
              onClick={() => setCursors((stack) => stack.slice(0, -1))}
            >
              {t('users.previous')}
            </button>
            <button
              type="button"
              className={`${secondaryButtonClass} ${disabledClass}`}
              disabled={page.next_cursor === null || users.isPlaceholderData}
              onClick={() => {
                const next = page.next_cursor;
                if (next !== null) setCursors((stack) => [...stack, next]);
              }}
            >
              {t('users.next')}
            </button>
          </nav>
        </>
      ) : null}

      <Modal open={confirming !== null} title={t('users.resetTitle')} onClose={() => setConfirming(null)}>
        {confirming === null ? null : (
          <div className="space-y-4">
            <p>
              <Trans
                t={t}
                i18nKey="users.resetBody"
                values={{ user: describeUser(confirming) }}
                components={{ strong: <strong className="text-slate-900" /> }}
              />
            </p>
            <button
              type="button"
              className={`${dangerButtonClass} ${disabledClass}`}
              disabled={reset.isPending}
              onClick={() => reset.mutate(confirming)}
            >
              {reset.isPending ? t('users.resetting') : t('users.confirmReset')}
            </button>
          </div>
        )}
      </Modal>

      <Modal open={result !== null} title={t('users.temporaryTitle')} onClose={() => setResult(null)}>
        {result === null ? null : (
          <TemporaryPassword userLabel={describeUser(result.user)} password={result.temporaryPassword} />
        )}
      </Modal>
    </AdminSection>
  );
}

const COLUMNS = [
  'name',
  'email',
  'phone',
  'balance',
  'points',
  'tier',
  'role',
  'leftPalm',
  'rightPalm',
  'created',
  'actions',
] as const;

function UsersTable({
  users,
  busy,
  onReset,
}: {
  users: readonly AdminUserRow[];
  busy: boolean;
  onReset: (user: AdminUserRow) => void;
}) {
  const { t } = useTranslation('admin');
  // The rewards columns (issue 24) come from the rewards texts.
  const { t: rewardsText } = useTranslation('rewards');
  const format = useFormatters();
  const yesNo = (hash: string | null): string =>
    hash !== null ? t('users.registered') : t('users.notRegistered');
  const columnLabel = (column: (typeof COLUMNS)[number]): string =>
    column === 'points'
      ? rewardsText('admin.points')
      : column === 'tier'
        ? rewardsText('admin.tier')
        : t(`users.columns.${column}`);
  return (
    <AdminTable columns={COLUMNS.map(columnLabel)} busy={busy}>
      {users.map((user) => (
        <tr key={user.id}>
          <td
            className={`${cellClass} max-w-48 truncate font-medium text-slate-900`}
            title={user.username}
            translate="no"
          >
            {user.username}
          </td>
          {/* One line: a long address is cut with an ellipsis, the whole of it on hover. */}
          <td
            className={`${cellClass} max-w-64 truncate whitespace-nowrap`}
            title={user.email ?? undefined}
            translate="no"
          >
            {user.email ?? '—'}
          </td>
          <td className={`${cellClass} whitespace-nowrap`} translate="no">
            {user.phone ?? '—'}
          </td>
          <td className={`${cellClass} font-semibold whitespace-nowrap text-slate-900`}>
            {formatMoney(user.balance)}
          </td>
          <td className={`${cellClass} whitespace-nowrap`}>{format.number(user.points ?? 0)}</td>
          <td className={cellClass}>
            {user.tier === null || user.tier === undefined
              ? rewardsText('admin.noTier')
              : rewardsText(`tiers.${user.tier}`)}
          </td>
          <td className={cellClass}>{t(`users.roles.${user.role}`, { defaultValue: user.role })}</td>
          <td className={cellClass}>{yesNo(user.left_palm_hash)}</td>
          <td className={cellClass}>{yesNo(user.right_palm_hash)}</td>
          <td className={`${cellClass} whitespace-nowrap`}>{formatDate(user.created_at)}</td>
          <td className="px-4 py-3">
            <RowActions label={t('users.actionsMenu')} name={user.username}>
              <PalmActions user={user} />
              <button type="button" className={secondaryButtonClass} onClick={() => onReset(user)}>
                {t('users.resetPassword')}
                <span className="sr-only">{t('users.forUser', { user: user.username })}</span>
              </button>
            </RowActions>
          </td>
        </tr>
      ))}
    </AdminTable>
  );
}

/**
 * A row's actions behind one "Actions" button (a disclosure), so a row stays one line high; opened, they
 * stack below it inside the cell.
 */
function RowActions({ label, name, children }: { label: string; name: string; children: ReactNode }) {
  return (
    <details className="group">
      <summary
        className={`${secondaryButtonClass} cursor-pointer list-none whitespace-nowrap [&::-webkit-details-marker]:hidden`}
      >
        {label}
        <span className="sr-only" translate="no">
          {' '}
          {name}
        </span>
        <span aria-hidden="true" className="ml-1 inline-block transition-transform group-open:rotate-180">
          ▾
        </span>
      </summary>
      <div className="mt-2 flex flex-col items-stretch gap-2">{children}</div>
    </details>
  );
}

/**
 * Spec §2.17: a Register button for each hand without a palm (its `*_palm_hash` is null, spec §3); both shown
 * disabled once both hands are registered.
 */
function PalmActions({ user }: { user: AdminUserRow }) {
  const { t } = useTranslation('admin');
  const forUser = t('users.forUser', { user: user.username });
  const hands: Array<{ hand: Hand; label: string; registered: boolean }> = [
    { hand: 'left', label: t('users.registerLeft'), registered: user.left_palm_hash !== null },
    { hand: 'right', label: t('users.registerRight'), registered: user.right_palm_hash !== null },
  ];
  const both = hands.every(({ registered }) => registered);
  return (
    <>
      {hands.map(({ hand, label, registered }) => {
        if (both) {
          return (
            <button key={hand} type="button" className={`${secondaryButtonClass} ${disabledClass}`} disabled>
              {label}
              <span className="sr-only">{forUser}</span>
            </button>
          );
        }
        if (registered) return null;
        return (
          <Link key={hand} to={palmRegisterHref(user, hand)} className={secondaryButtonClass}>
            {label}
            <span className="sr-only">{forUser}</span>
          </Link>
        );
      })}
    </>
  );
}

/** Shown once: the server keeps only a hash. */
function TemporaryPassword({ userLabel, password }: { userLabel: string; password: string }) {
  const { t } = useTranslation(['admin', 'app', 'messages']);
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return undefined;
    const timer = window.setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
    return () => window.clearTimeout(timer);
  }, [copied]);

  return (
    <div className="space-y-4">
      <p>
        <Trans
          t={t}
          i18nKey="users.temporaryBody"
          values={{ user: userLabel }}
          components={{ strong: <strong className="text-slate-900" /> }}
        />
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <span className="text-sm font-medium text-slate-700">{t('users.temporaryLabel')}</span>
        <code className="rounded-lg bg-slate-100 px-3 py-2 font-mono text-base text-slate-900 select-all">
          {password}
        </code>
        <button
          type="button"
          className={secondaryButtonClass}
          onClick={() => {
            navigator.clipboard.writeText(password).then(
              () => setCopied(true),
              () => toast.error(t('users.copyFailed')),
            );
          }}
        >
          {copied ? t('messages:copied') : t('app:actions.copy')}
        </button>
      </div>
    </div>
  );
}
