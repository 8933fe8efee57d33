import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'react-hot-toast';
import { useTranslation } from 'react-i18next';

import { errorMessage } from '../lib/api-client';
import { formatDateTime } from '../lib/i18n-format';
import { listSessions, revokeOtherSessions, revokeSession } from '../lib/sessions';
import { disabledClass, secondaryButtonClass } from './ui-classes';

const SESSIONS_KEY = ['sessions'] as const;

/**
 * Settings: the devices signed in to this account (when each signed in and was last active, which is this
 * one), with "Sign out everywhere else" and a sign-out per other device.
 */
export function SessionsList({ headingLevel = 3 }: { headingLevel?: 2 | 3 } = {}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const sessions = useQuery({ queryKey: SESSIONS_KEY, queryFn: listSessions });
  const refresh = () => queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
  const onError = (error: unknown) => toast.error(errorMessage(error, t('sessions.failed')));

  const signOutOthers = useMutation({
    mutationFn: revokeOtherSessions,
    onSuccess: async (answer) => {
      toast.success(answer.message);
      await refresh();
    },
    onError,
  });
  const signOutOne = useMutation({
    mutationFn: revokeSession,
    onSuccess: async (answer) => {
      toast.success(answer.message);
      await refresh();
    },
    onError,
  });

  const list = sessions.data?.sessions ?? [];
  const others = list.filter((session) => !session.current);
  return (
    <section aria-labelledby="sessions-heading" className="mt-6 space-y-3 border-t border-slate-200 pt-4">
      <Heading id="sessions-heading" className="text-base font-semibold text-slate-900">
        {t('sessions.heading')}
      </Heading>
      {sessions.isPending ? <p>{t('sessions.loading')}</p> : null}
      {sessions.isError ? <p role="alert">{t('sessions.failed')}</p> : null}
      <ul className="space-y-2">
        {list.map((session) => (
          <li key={session.id} className="flex items-start justify-between gap-3 text-sm text-slate-700">
            <div>
              <p className="font-medium text-slate-900">
                {session.current ? `${t('sessions.thisDevice')}: ` : ''}
                {session.user_agent === null ? (
                  t('sessions.unknownDevice')
                ) : (
                  <span translate="no">{session.user_agent}</span>
                )}
              </p>
              <p>{t('sessions.started', { when: formatDateTime(session.created_at) })}</p>
              <p>{t('sessions.lastSeen', { when: formatDateTime(session.last_seen_at) })}</p>
            </div>
            {session.current ? null : (
              <button
                type="button"
                className={`${secondaryButtonClass} ${disabledClass}`}
                disabled={signOutOne.isPending}
                onClick={() => signOutOne.mutate(session.id)}
              >
                {t('sessions.signOut')}
              </button>
            )}
          </li>
        ))}
      </ul>
      {sessions.isSuccess && others.length === 0 ? <p>{t('sessions.none')}</p> : null}
      <button
        type="button"
        className={`${secondaryButtonClass} ${disabledClass}`}
        disabled={signOutOthers.isPending || !sessions.isSuccess}
        onClick={() => signOutOthers.mutate()}
      >
        {signOutOthers.isPending ? t('sessions.signingOut') : t('sessions.signOutOthers')}
      </button>
    </section>
  );
}
