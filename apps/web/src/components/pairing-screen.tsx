import { useId, useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { FormAlert, TextField } from './form-field';
import { cardClass, disabledClass, primaryButtonClass } from './ui-classes';
import { errorMessage } from '../lib/api-client';
import { normalisePairingCode, pairThisBrowser } from '../lib/device-session';
import type { DeviceSlot, StoredDevice } from '../lib/device-key';

interface PairingScreenProps {
  /** What this browser becomes: a store terminal (/terminal) or a kiosk (/kiosk). */
  kind: 'terminal' | 'kiosk';
  /** Where its credentials are kept ('terminal' or 'kiosk'). */
  slot: DeviceSlot;
  /** Paired: the credentials are stored; the caller shows its mode. */
  onPaired: (stored: StoredDevice) => void;
  /** Shown above the form (a heading of the caller's, a language switch...). */
  children?: ReactNode;
}

/**
 * The pairing screen (issue 22): the 8-character code made by the store owner (Terminals) or an admin
 * (Devices); on submit this browser makes a non-extractable ECDSA P-256 key pair, sends the public key with
 * the code (POST /api/devices/pair), and keeps the device token and the key pair in IndexedDB. Shared by the
 * terminal and the kiosk; texts in the `devices` namespace (the route loads it).
 */
export function PairingScreen({ kind, slot, onPaired, children }: PairingScreenProps) {
  const { t } = useTranslation('devices');
  const alertId = useId();
  const headingId = useId();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const supported = typeof crypto !== 'undefined' && crypto.subtle !== undefined;

  const submit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    const normalised = normalisePairingCode(code);
    if (normalised === null) {
      setError(t('pairing.codeInvalid'));
      return;
    }
    setError(null);
    setBusy(true);
    try {
      onPaired(await pairThisBrowser(slot, normalised));
    } catch (failure) {
      setError(errorMessage(failure, t('pairing.failed')));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby={headingId} className={`${cardClass} mx-auto w-full max-w-lg space-y-4`}>
      {children}
      <h1 id={headingId} className="text-2xl font-bold text-slate-900 sm:text-3xl">
        {t('pairing.title')}
      </h1>
      <p className="text-base text-slate-700 sm:text-lg">
        {t(kind === 'terminal' ? 'pairing.introTerminal' : 'pairing.introKiosk')}
      </p>
      {supported ? (
        <form noValidate className="space-y-4" onSubmit={(event) => void submit(event)}>
          <TextField
            label={t('pairing.codeLabel')}
            hint={t('pairing.codeHint')}
            name="pairing-code"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={12}
            value={code}
            invalid={error !== null}
            errorId={alertId}
            onChange={(event) => setCode(event.target.value)}
          />
          <FormAlert id={alertId} message={error} />
          <button
            type="submit"
            className={`${primaryButtonClass} ${disabledClass} w-full py-3 text-lg`}
            disabled={busy}
          >
            {busy ? t('pairing.pairing') : t('pairing.submit')}
          </button>
          <p className="text-sm text-slate-600">{t('pairing.keyNote')}</p>
        </form>
      ) : (
        <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 font-medium text-red-800">
          {t('pairing.unsupported')}
        </p>
      )}
    </section>
  );
}
