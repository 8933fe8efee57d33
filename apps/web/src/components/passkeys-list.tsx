import { messages } from '@hasta/contracts/messages';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'react-hot-toast';
import { useTranslation } from 'react-i18next';

import { errorMessage } from '../lib/api-client';
import { formatDateTime } from '../lib/i18n-format';
import { PasskeyCancelled, listPasskeys, passkeyKeys, registerPasskey, removePasskey } from '../lib/passkeys';
import { StepUpCode } from './step-up-code';
import { disabledClass, secondaryButtonClass } from './ui-classes';

/** What waits for the owner's step-up (purpose passkey_manage): adding one, or removing this one. */
type Pending = { kind: 'add' } | { kind: 'remove'; id: string };

/**
 * Settings: the account's passkeys (issue 23), when each was added and last used, with "Add a passkey" and
 * "Remove". Both need the owner to confirm it is them first (a code, or another passkey); an admin or a
 * store owner keeps at least one (the server says so).
 */
export function PasskeysList({ headingLevel = 3 }: { headingLevel?: 2 | 3 } = {}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const passkeys = useQuery({ queryKey: passkeyKeys.list, queryFn: listPasskeys });
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState<Pending | null>(null);

  const act = async (pending: Pending): Promise<void> => {
    setBusy(true);
    try {
      if (pending.kind === 'add') {
        const answer = await registerPasskey();
        toast.success(answer.message);
      } else {
        const answer = await removePasskey(pending.id);
        toast.success(answer.message);
      }
      setConfirming(null);
      await queryClient.invalidateQueries({ queryKey: passkeyKeys.list });
    } catch (cause) {
      if (errorMessage(cause, '') === messages.stepUpRequired) setConfirming(pending);
      else
        toast.error(
          cause instanceof PasskeyCancelled
            ? t('passkeys.cancelled')
            : errorMessage(cause, t('passkeys.failed')),
        );
    } finally {
      setBusy(false);
    }
  };

  const list = passkeys.data?.passkeys ?? [];
  return (
    <section aria-labelledby="passkeys-heading" className="mt-6 space-y-3 border-t border-slate-200 pt-4">
      <Heading id="passkeys-heading" className="text-base font-semibold text-slate-900">
        {t('passkeys.heading')}
      </Heading>
      <p className="text-sm text-slate-700">{t('passkeys.intro')}</p>
      {passkeys.isPending ? <p>{t('passkeys.loading')}</p> : null}
      {passkeys.isError ? <p role="alert">{t('passkeys.failed')}</p> : null}
      {passkeys.isSuccess && list.length === 0 ? <p>{t('passkeys.none')}</p> : null}
      <ul className="space-y-2" aria-label={t('passkeys.heading')}>
        {list.map((passkey) => (
          <li key={passkey.id} className="flex items-start justify-between gap-3 text-sm text-slate-700">
            <div>
              <p className="font-medium text-slate-900" translate="no">
                {passkey.name}
              </p>
              <p>{t('passkeys.added', { when: formatDateTime(passkey.created_at) })}</p>
              <p>
                {passkey.last_used_at === null
                  ? t('passkeys.neverUsed')
                  : t('passkeys.lastUsed', { when: formatDateTime(passkey.last_used_at) })}
              </p>
            </div>
            <button
              type="button"
              className={`${secondaryButtonClass} ${disabledClass}`}
              disabled={busy}
              onClick={() => void act({ kind: 'remove', id: passkey.id })}
            >
              {t('passkeys.remove')}
              {/* The passkey's name is the person's (or the server's default): left as it is. */}
              <span className="sr-only" translate="no">
                : {passkey.name}
              </span>
            </button>
          </li>
        ))}
      </ul>
      {confirming === null ? (
        <button
          type="button"
          className={`${secondaryButtonClass} ${disabledClass}`}
          disabled={busy || !passkeys.isSuccess}
          onClick={() => void act({ kind: 'add' })}
        >
          {busy ? t('passkeys.adding') : t('passkeys.add')}
        </button>
      ) : (
        <StepUpCode
          purpose="passkey_manage"
          intro={<p>{t('passkeys.confirmFirst')}</p>}
          onVerified={() => void act(confirming)}
        />
      )}
    </section>
  );
}
