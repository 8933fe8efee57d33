import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { formatDateTime } from '../lib/i18n-format';

/** How often the time left is worked out again from the clock. */
const TICK_MS = 1_000;
const systemNow = (): number => Date.now();

/**
 * A device pairing code just made (issue 22): the 8 characters large enough to read across a counter, split
 * in two halves, with the time it expires and the minutes and seconds left (worked out from the clock, so a
 * throttled tab still ends on time). Once expired it says so; the code is never shown again by the server.
 */
export function PairingCodeCard({
  code,
  expiresAt,
  deviceName,
  now = systemNow,
}: {
  code: string;
  expiresAt: string;
  deviceName: string;
  /** The clock (tests pass their own). */
  now?: () => number;
}) {
  const { t } = useTranslation('app');
  const deadline = new Date(expiresAt).getTime();
  const [left, setLeft] = useState(() => Math.max(0, deadline - now()));
  useEffect(() => {
    const timer = window.setInterval(() => {
      const next = Math.max(0, deadline - now());
      setLeft(next);
      if (next === 0) window.clearInterval(timer);
    }, TICK_MS);
    return () => window.clearInterval(timer);
  }, [deadline, now]);
  const expired = left === 0;
  const seconds = Math.ceil(left / 1_000);
  const clock = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
  const spaced = `${code.slice(0, 4)} ${code.slice(4)}`;
  return (
    <section
      aria-label={t('pairingCode.label', { name: deviceName })}
      className="rounded-2xl border-2 border-emerald-700 bg-emerald-50 p-6 text-center"
    >
      <p className="font-medium text-emerald-950">{t('pairingCode.enterOn', { name: deviceName })}</p>
      <p
        className={`mt-3 font-mono text-4xl font-bold tracking-[0.2em] break-all sm:text-6xl ${expired ? 'text-slate-500 line-through' : 'text-slate-900'}`}
        data-testid="pairing-code"
        aria-label={t('pairingCode.codeLabel', { code: code.split('').join(' ') })}
      >
        {spaced}
      </p>
      {/* The seconds are not announced as they tick; the expiry is, once. */}
      {expired ? (
        <p className="mt-3 font-semibold text-red-800" role="alert">
          {t('pairingCode.expired')}
        </p>
      ) : (
        <p className="mt-3 text-slate-800">
          {t('pairingCode.expiresIn', { clock, time: formatDateTime(expiresAt) })}
        </p>
      )}
      <p className="mt-1 text-sm text-slate-700">{t('pairingCode.once')}</p>
    </section>
  );
}
