import { messages } from '@hasta/contracts/messages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { toast } from 'react-hot-toast';
import { useTranslation } from 'react-i18next';

import { FormAlert, TextField } from '../../../components/form-field';
import { DeviceRevokeControl } from '../../../components/device-revoke-control';
import { PairingCodeCard } from '../../../components/pairing-code-card';
import {
  cardClass,
  disabledClass,
  primaryButtonClass,
  secondaryButtonClass,
} from '../../../components/ui-classes';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/i18n-format';
import { translateMessage } from '../../../lib/server-message';
import { createTerminalCode, fetchTerminals, revokeTerminal, terminalKeys } from '../api/terminals';
import type { PairingCode, Terminal } from '../api/terminals';

const NAME_MAX_CHARS = 80;

/**
 * Terminals tab (issue 22): the store's paired terminals (the tablets and phones at the counter that take
 * palm payments at /terminal), a pairing code for a new one (8 characters, single use, 10 minutes), and
 * Remove, one click, which stops the terminal at once.
 */
export function TerminalsTab() {
  const { t } = useTranslation(['merchant', 'app']);
  const queryClient = useQueryClient();
  const terminals = useQuery({
    queryKey: terminalKeys.all,
    queryFn: ({ signal }) => fetchTerminals(signal),
    refetchOnMount: 'always',
  });
  const [code, setCode] = useState<PairingCode | null>(null);

  const revoke = useMutation({
    mutationFn: (terminal: Terminal) => revokeTerminal(terminal.id),
    onSuccess: (answer) => {
      toast.success(translateMessage(answer.message));
      void queryClient.invalidateQueries({ queryKey: terminalKeys.all });
    },
    onError: (cause) => toast.error(errorMessage(cause, messages.internal)),
  });

  return (
    <div className="space-y-8">
      <div className={`${cardClass} space-y-4`}>
        <h2 className="text-xl font-semibold text-slate-900">{t('terminals.pairHeading')}</h2>
        <p className="text-slate-700">{t('terminals.pairLead')}</p>
        <NewTerminalForm
          onCreated={(created) => {
            setCode(created);
            void queryClient.invalidateQueries({ queryKey: terminalKeys.all });
          }}
        />
        {code === null ? null : (
          <>
            <PairingCodeCard code={code.code} expiresAt={code.expires_at} deviceName={code.name} />
            <p className="text-sm text-slate-700">{t('terminals.howToPair')}</p>
          </>
        )}
      </div>

      <section aria-labelledby="store-terminals-heading" className="space-y-4">
        <h2 id="store-terminals-heading" className="text-xl font-semibold text-slate-900">
          {t('terminals.listHeading')}
        </h2>
        {terminals.isPending ? (
          <p role="status" className="text-slate-600">
            {t('terminals.loading')}
          </p>
        ) : null}
        {terminals.isError ? (
          <div role="alert" className="flex flex-wrap items-center gap-4 rounded-lg bg-red-50 px-4 py-3">
            <p className="font-medium text-red-800">
              {t('terminals.loadFailed')}: {errorMessage(terminals.error, messages.internal)}
            </p>
            <button type="button" className={secondaryButtonClass} onClick={() => void terminals.refetch()}>
              {t('app:actions.retry')}
            </button>
          </div>
        ) : null}
        {terminals.isSuccess && terminals.data.length === 0 ? (
          <p className="text-slate-600">{t('terminals.empty')}</p>
        ) : null}
        {terminals.isSuccess && terminals.data.length > 0 ? (
          <div className="relative overflow-x-auto" tabIndex={0}>
            <table className="w-full min-w-[36rem] text-left text-sm">
              <caption className="sr-only">{t('terminals.caption')}</caption>
              <thead className="border-b border-slate-200 text-slate-600">
                <tr>
                  {(['name', 'created', 'lastSeen', 'payments', 'actions'] as const).map((column) => (
                    <th key={column} scope="col" className="py-2 pr-4 font-medium">
                      {t(`terminals.columns.${column}`)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {terminals.data.map((terminal) => (
                  <tr key={terminal.id} data-testid="terminal-row">
                    <td className="py-2 pr-4 font-medium text-slate-900" translate="no">
                      {terminal.name}
                    </td>
                    <td className="py-2 pr-4 whitespace-nowrap">{formatDateTime(terminal.created_at)}</td>
                    <td className="py-2 pr-4 whitespace-nowrap">
                      {terminal.last_seen_at === null
                        ? t('terminals.never')
                        : formatDateTime(terminal.last_seen_at)}
                    </td>
                    <td className="py-2 pr-4">{terminal.payment_count}</td>
                    <td className="py-2">
                      <DeviceRevokeControl
                        name={terminal.name}
                        revokedAt={terminal.revoked_at}
                        pending={revoke.isPending && revoke.variables.id === terminal.id}
                        onRevoke={() => revoke.mutate(terminal)}
                        label={t('terminals.revoke')}
                        revokedOn={(time) => t('terminals.revokedOn', { time })}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </section>
    </div>
  );
}

/** The new terminal's name (shown in the list and on the terminal) and Create pairing code. */
function NewTerminalForm({ onCreated }: { onCreated: (code: PairingCode) => void }) {
  const { t } = useTranslation('merchant');
  const errorId = useId();
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (value: string) => createTerminalCode(value),
    onSuccess: (created) => {
      setProblem(null);
      setName('');
      onCreated(created);
    },
    onError: (cause) => setProblem(errorMessage(cause, messages.internal)),
  });
  const submit = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (name.trim() === '') {
      setProblem(messages.fillAllRequired);
      return;
    }
    create.mutate(name);
  };
  return (
    <form noValidate onSubmit={submit} className="space-y-3">
      <TextField
        label={t('terminals.nameLabel')}
        hint={t('terminals.nameHint')}
        value={name}
        maxLength={NAME_MAX_CHARS}
        autoComplete="off"
        invalid={problem !== null}
        errorId={errorId}
        onChange={(event) => setName(event.target.value)}
      />
      <FormAlert id={errorId} message={problem} />
      <button type="submit" className={`${primaryButtonClass} ${disabledClass}`} disabled={create.isPending}>
        {create.isPending ? t('terminals.creating') : t('terminals.create')}
      </button>
    </form>
  );
}
