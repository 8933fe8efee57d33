import { COPY_CONFIRMATION_MS } from '@hasta/contracts/constants';
import { messages } from '@hasta/contracts/messages';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { toast } from 'react-hot-toast';

import { Modal } from '../../../components/modal';
import { dangerButtonClass, disabledClass, secondaryButtonClass } from '../../../components/ui-classes';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { adminUsersQueryKey, fetchAdminUsers, resetUserPassword } from '../api/users';
import type { AdminUserRow } from '../api/users';

const dateFormat = new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'short', year: 'numeric' });

function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateFormat.format(date);
}

/** A readable name for a user in dialogs: username, with the email or phone. */
function describeUser(user: AdminUserRow): string {
  const contact = user.email ?? user.phone;
  return contact === null ? user.username : `${user.username} (${contact})`;
}

/**
 * The Users section of the admin dashboard (spec §2.17): the list (admins excluded by the server) with a
 * per-user password reset. The rest of the Users tab arrives with the admin dashboard.
 */
export function UsersSection() {
  const headingId = useId();
  const users = useQuery({
    queryKey: adminUsersQueryKey,
    queryFn: ({ signal }) => fetchAdminUsers(signal),
    refetchOnMount: 'always',
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

  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="text-2xl font-semibold text-slate-900">
        Users
      </h2>
      <div className="mt-4">
        {users.isPending ? <p className="text-slate-600">Loading users...</p> : null}
        {users.isError ? (
          <div role="alert" className="flex flex-wrap items-center gap-4 rounded-lg bg-red-50 px-4 py-3">
            <p className="text-red-800">
              <strong className="font-semibold">{messages.failedToLoadUsers}</strong>
              {users.error instanceof ApiError ? `: ${users.error.message}` : null}
            </p>
            <button type="button" className={secondaryButtonClass} onClick={() => void users.refetch()}>
              Retry
            </button>
          </div>
        ) : null}
        {users.isSuccess && users.data.length === 0 ? <p className="text-slate-600">No users yet.</p> : null}
        {users.isSuccess && users.data.length > 0 ? (
          <UsersTable users={users.data} onReset={setConfirming} />
        ) : null}
      </div>

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
    </section>
  );
}

function UsersTable({ users, onReset }: { users: AdminUserRow[]; onReset: (user: AdminUserRow) => void }) {
  return (
    <div className="overflow-x-auto rounded-2xl border border-slate-200">
      <table className="min-w-full divide-y divide-slate-200 text-left text-sm">
        <thead className="bg-slate-50 text-slate-700">
          <tr>
            <th scope="col" className="px-4 py-3 font-semibold">
              Username
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Email
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Phone
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Role
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Created
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Actions
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 bg-white">
          {users.map((user) => (
            <tr key={user.id}>
              <td className="px-4 py-3 font-medium text-slate-900">{user.username}</td>
              <td className="px-4 py-3 text-slate-700">{user.email ?? '—'}</td>
              <td className="px-4 py-3 text-slate-700">{user.phone ?? '—'}</td>
              <td className="px-4 py-3 text-slate-700">{user.role}</td>
              <td className="px-4 py-3 text-slate-700">{formatDate(user.created_at)}</td>
              <td className="px-4 py-3">
                <button type="button" className={secondaryButtonClass} onClick={() => onReset(user)}>
                  Reset password<span className="sr-only"> for {user.username}</span>
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
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
