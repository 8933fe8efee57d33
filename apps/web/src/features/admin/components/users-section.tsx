import { ADMIN_USERS_PAGE_SIZE_DEFAULT } from '@hasta/contracts/auth';
import { COPY_CONFIRMATION_MS } from '@hasta/contracts/constants';
import { messages } from '@hasta/contracts/messages';
import { formatInr } from '@hasta/ledger/money';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FormEvent } from 'react';
import { Link } from 'react-router';
import { toast } from 'react-hot-toast';

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
import { useFormatters } from '../../../lib/i18n-format';
import { adminUsersQueryKey, fetchAdminUsersPage, fetchAllAdminUsers, resetUserPassword } from '../api/users';
import type { AdminUserRow, UsersPageRequest } from '../api/users';
import { downloadCsv, USERS_CSV_FILE_NAME, usersCsv } from '../utils/users-csv';
import { AdminSection, AdminTable, cellClass, formatDate, ListState, loadOnOpen } from './admin-list';
import { RewardsSummary } from './rewards-summary';

const PAGE_SIZES = [10, 25, 50, 100] as const;
const numberFormat = new Intl.NumberFormat('en-IN');

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
        `${messages.failedToResetPasswordPrefix}${errorMessage(error, error instanceof Error ? error.message : messages.loginRequestFailed)}`,
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
        `${messages.failedToExportUsersPrefix}${errorMessage(error, error instanceof Error ? error.message : messages.loginRequestFailed)}`,
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
      title="Users"
      actions={
        <button
          type="button"
          className={`${secondaryButtonClass} ${disabledClass}`}
          disabled={exportCsv.isPending}
          onClick={() => exportCsv.mutate()}
        >
          {exportCsv.isPending ? `Exporting... ${numberFormat.format(exported ?? 0)} users` : 'Export CSV'}
        </button>
      }
    >
      <RewardsSummary />
      <form
        role="search"
        aria-label="User search"
        className="flex flex-wrap items-end gap-3"
        onSubmit={submitSearch}
      >
        <div className="min-w-64 flex-1">
          <label htmlFor={searchId} className={labelClass}>
            Search users
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
          Search
        </button>
        {search === '' ? null : (
          <button type="button" className={secondaryButtonClass} onClick={clearSearch}>
            Clear search
          </button>
        )}
        <div>
          <label htmlFor={pageSizeId} className={labelClass}>
            Rows per page
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
          Name, email or phone. One or two characters match the start of a name or email; three or more match
          anywhere. Export CSV saves every user the search matches.
        </p>
      </form>

      <ListState
        query={users}
        loadingText="Loading users..."
        failureText={messages.failedToLoadUsers}
        emptyText={search === '' ? 'No users yet.' : `No users match “${search}”.`}
        isEmpty={(data) => data.users.length === 0}
      />

      {page !== undefined && page.users.length > 0 ? (
        <>
          <p role="status" className="text-sm text-slate-700">
            Showing {numberFormat.format(firstRow)}–{numberFormat.format(firstRow + page.users.length - 1)} of{' '}
            {page.total_exact ? '' : 'more than '}
            {numberFormat.format(page.total)} {page.total === 1 && page.total_exact ? 'user' : 'users'}
            {search === '' ? '' : ` matching “${search}”`}
          </p>
          <UsersTable users={page.users} busy={users.isPlaceholderData} onReset={setConfirming} />
          <nav aria-label="Users pages" className="flex flex-wrap gap-3">
            <button
              type="button"
              className={`${secondaryButtonClass} ${disabledClass}`}
              disabled={cursors.length === 0 || users.isPlaceholderData}
              onClick={() => setCursors((stack) => stack.slice(0, -1))}
            >
              Previous page
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
              Next page
            </button>
          </nav>
        </>
      ) : null}

      <Modal open={confirming !== null} title="Reset password?" onClose={() => setConfirming(null)}>
        {confirming === null ? null : (
          <div className="space-y-4">
            <p>
              Reset the password of <strong className="text-slate-900">{describeUser(confirming)}</strong>?
              They get a temporary password, must choose a new one at their next login, and their current
              sessions end.
            </p>
            <button
              type="button"
              className={`${dangerButtonClass} ${disabledClass}`}
              disabled={reset.isPending}
              onClick={() => reset.mutate(confirming)}
            >
              {reset.isPending ? 'Resetting...' : 'Confirm reset'}
            </button>
          </div>
        )}
      </Modal>

      <Modal open={result !== null} title="Temporary password" onClose={() => setResult(null)}>
        {result === null ? null : (
          <TemporaryPassword userLabel={describeUser(result.user)} password={result.temporaryPassword} />
        )}
      </Modal>
    </AdminSection>
  );
}

const COLUMNS = [
  'Name',
  'Email',
  'Phone',
  'Balance',
  'Points',
  'Tier',
  'Role',
  'Left Palm',
  'Right Palm',
  'Created',
  'Actions',
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
  const { t } = useTranslation('rewards');
  const format = useFormatters();
  // The rewards columns (issue 24) in the page's language.
  const columns = COLUMNS.map((column) =>
    column === 'Points' ? t('admin.points') : column === 'Tier' ? t('admin.tier') : column,
  );
  return (
    <AdminTable columns={columns} busy={busy}>
      {users.map((user) => (
        <tr key={user.id}>
          <td className={`${cellClass} font-medium text-slate-900`}>{user.username}</td>
          <td className={`${cellClass} break-all`}>{user.email ?? '—'}</td>
          <td className={`${cellClass} whitespace-nowrap`}>{user.phone ?? '—'}</td>
          <td className={`${cellClass} font-semibold whitespace-nowrap text-slate-900`}>
            {formatInr(user.balance, 'en-IN')}
          </td>
          <td className={`${cellClass} whitespace-nowrap`}>{format.number(user.points ?? 0)}</td>
          <td className={cellClass}>
            {user.tier === null || user.tier === undefined ? t('admin.noTier') : t(`tiers.${user.tier}`)}
          </td>
          <td className={cellClass}>{user.role}</td>
          <td className={cellClass}>{user.left_palm_hash !== null ? 'YES' : 'NO'}</td>
          <td className={cellClass}>{user.right_palm_hash !== null ? 'YES' : 'NO'}</td>
          <td className={`${cellClass} whitespace-nowrap`}>{formatDate(user.created_at)}</td>
          <td className="px-4 py-3">
            <div className="flex flex-wrap gap-2">
              <PalmActions user={user} />
              <button type="button" className={secondaryButtonClass} onClick={() => onReset(user)}>
                Reset password<span className="sr-only"> for {user.username}</span>
              </button>
            </div>
          </td>
        </tr>
      ))}
    </AdminTable>
  );
}

/**
 * Spec §2.17: a Register button for each hand without a palm (its `*_palm_hash` is null, spec §3); both shown
 * disabled once both hands are registered.
 */
function PalmActions({ user }: { user: AdminUserRow }) {
  const hands: Array<{ hand: Hand; label: string; registered: boolean }> = [
    { hand: 'left', label: 'Register Left Palm', registered: user.left_palm_hash !== null },
    { hand: 'right', label: 'Register Right Palm', registered: user.right_palm_hash !== null },
  ];
  const both = hands.every(({ registered }) => registered);
  return (
    <>
      {hands.map(({ hand, label, registered }) => {
        if (both) {
          return (
            <button key={hand} type="button" className={`${secondaryButtonClass} ${disabledClass}`} disabled>
              {label}
              <span className="sr-only"> for {user.username}</span>
            </button>
          );
        }
        if (registered) return null;
        return (
          <Link key={hand} to={palmRegisterHref(user, hand)} className={secondaryButtonClass}>
            {label}
            <span className="sr-only"> for {user.username}</span>
          </Link>
        );
      })}
    </>
  );
}

/** Shown once: the server keeps only a hash. */
function TemporaryPassword({ userLabel, password }: { userLabel: string; password: string }) {
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return undefined;
    const timer = window.setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
    return () => window.clearTimeout(timer);
  }, [copied]);

  return (
    <div className="space-y-4">
      <p>
        The password of <strong className="text-slate-900">{userLabel}</strong> was reset. Give them this
        temporary password; they must change it at their next login. It is shown only once.
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <span className="text-sm font-medium text-slate-700">Temporary password:</span>
        <code className="rounded-lg bg-slate-100 px-3 py-2 font-mono text-base text-slate-900 select-all">
          {password}
        </code>
        <button
          type="button"
          className={secondaryButtonClass}
          onClick={() => {
            navigator.clipboard.writeText(password).then(
              () => setCopied(true),
              () => toast.error('Copy failed: select the password and copy it by hand.'),
            );
          }}
        >
          {copied ? 'Copied!' : 'Copy'}
        </button>
      </div>
    </div>
  );
}
