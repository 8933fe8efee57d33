import type { SecondFactorStep } from '@hasta/contracts/passkeys';
import { messages } from '@hasta/contracts/messages';
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { toast } from 'react-hot-toast';
import { useTranslation } from 'react-i18next';

import { FormAlert, TextField } from '../../../components/form-field';
import {
  disabledClass,
  linkButtonClass,
  primaryButtonClass,
  secondaryButtonClass,
} from '../../../components/ui-classes';
import { errorMessage } from '../../../lib/api-client';
import {
  PasskeyCancelled,
  confirmWithPasskey,
  registerPasskey,
  signInWithRecoveryCode,
} from '../../../lib/passkeys';

interface PasskeySignInStepProps {
  step: Exclude<SecondFactorStep, null>;
  /** The sign-in is finished: go on. */
  onDone: () => void;
  /** Back to the start (the half-open session is ended by the caller). */
  onCancel: () => void;
}

/**
 * The second step of an admin's or store owner's sign-in (issue 23): at the first sign-in, create a passkey
 * and see the recovery codes once (with "I have saved them" before going on); later, use the passkey, or a
 * recovery code in its place.
 */
export function PasskeySignInStep({ step, onDone, onCancel }: PasskeySignInStepProps) {
  const { t } = useTranslation();
  const id = useId();
  const alertId = `${id}-alert`;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [saved, setSaved] = useState(false);
  const [withCode, setWithCode] = useState(false);
  const [code, setCode] = useState('');

  const failed = (cause: unknown) =>
    setError(
      cause instanceof PasskeyCancelled
        ? t('passkeys.cancelled')
        : errorMessage(cause, messages.passkeyNotVerified),
    );

  const run = async (work: () => Promise<void>): Promise<void> => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (cause) {
      failed(cause);
    } finally {
      setBusy(false);
    }
  };

  const create = () =>
    run(async () => {
      const answer = await registerPasskey();
      if (answer.recovery_codes === undefined) onDone();
      else setRecoveryCodes(answer.recovery_codes);
    });

  const confirmByPasskey = () =>
    run(async () => {
      await confirmWithPasskey('sign_in');
      onDone();
    });

  const submitCode = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void run(async () => {
      const answer = await signInWithRecoveryCode(code);
      toast.success(t('passkeys.recoveryRemaining', { count: answer.remaining }));
      onDone();
    });
  };

  const cancel = (
    <button type="button" className={linkButtonClass} disabled={busy} onClick={onCancel}>
      {t('passkeys.back')}
    </button>
  );

  if (recoveryCodes !== null) {
    return (
      <section aria-labelledby={`${id}-heading`} className="space-y-4">
        <h2 id={`${id}-heading`} className="text-xl font-semibold text-slate-900">
          {t('passkeys.recoveryHeading')}
        </h2>
        <p className="text-slate-800">{t('passkeys.recoveryIntro')}</p>
        <ol
          aria-label={t('passkeys.recoveryHeading')}
          className="grid grid-cols-2 gap-2 rounded-lg bg-slate-50 p-4 font-mono text-slate-900"
        >
          {recoveryCodes.map((recoveryCode) => (
            <li key={recoveryCode}>{recoveryCode}</li>
          ))}
        </ol>
        <label className="flex items-center gap-2 text-slate-800">
          <input type="checkbox" checked={saved} onChange={(event) => setSaved(event.target.checked)} />
          {t('passkeys.recoverySaved')}
        </label>
        <button
          type="button"
          className={`${primaryButtonClass} ${disabledClass}`}
          disabled={!saved}
          onClick={onDone}
        >
          {t('passkeys.continue')}
        </button>
      </section>
    );
  }

  if (step === 'passkey_registration') {
    return (
      <section aria-labelledby={`${id}-heading`} className="space-y-4">
        <h2 id={`${id}-heading`} className="text-xl font-semibold text-slate-900">
          {t('passkeys.registerHeading')}
        </h2>
        <p className="text-slate-800">{t('passkeys.registerIntro')}</p>
        <FormAlert id={alertId} message={error} />
        <div className="flex flex-wrap items-center gap-4">
          <button
            type="button"
            className={`${primaryButtonClass} ${disabledClass}`}
            disabled={busy}
            onClick={() => void create()}
          >
            {busy ? t('passkeys.using') : t('passkeys.registerButton')}
          </button>
          {cancel}
        </div>
      </section>
    );
  }

  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-4">
      <h2 id={`${id}-heading`} className="text-xl font-semibold text-slate-900">
        {t('passkeys.verifyHeading')}
      </h2>
      <p className="text-slate-800">{t('passkeys.verifyIntro')}</p>
      {withCode ? (
        <form noValidate className="space-y-4" onSubmit={submitCode}>
          <TextField
            label={t('passkeys.recoveryCodeLabel')}
            autoComplete="off"
            value={code}
            invalid={error !== null}
            errorId={alertId}
            onChange={(event) => setCode(event.target.value)}
          />
          <FormAlert id={alertId} message={error} />
          <div className="flex flex-wrap items-center gap-4">
            <button
              type="submit"
              className={`${primaryButtonClass} ${disabledClass}`}
              disabled={busy || code === ''}
            >
              {t('passkeys.recoveryCodeSubmit')}
            </button>
            <button
              type="button"
              className={`${secondaryButtonClass} ${disabledClass}`}
              disabled={busy}
              onClick={() => {
                setError(null);
                setWithCode(false);
              }}
            >
              {t('passkeys.backToPasskey')}
            </button>
          </div>
        </form>
      ) : (
        <>
          <FormAlert id={alertId} message={error} />
          <div className="flex flex-wrap items-center gap-4">
            <button
              type="button"
              className={`${primaryButtonClass} ${disabledClass}`}
              disabled={busy}
              onClick={() => void confirmByPasskey()}
            >
              {busy ? t('passkeys.using') : t('passkeys.verifyButton')}
            </button>
            <button
              type="button"
              className={linkButtonClass}
              disabled={busy}
              onClick={() => {
                setError(null);
                setWithCode(true);
              }}
            >
              {t('passkeys.useRecoveryCode')}
            </button>
            {cancel}
          </div>
        </>
      )}
    </section>
  );
}
