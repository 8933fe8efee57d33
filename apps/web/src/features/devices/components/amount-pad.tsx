import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import {
  disabledClass,
  focusRing,
  primaryButtonClass,
  secondaryButtonClass,
} from '../../../components/ui-classes';
import { formatMoney } from '../../../lib/i18n-format';
import { translateMessage } from '../../../lib/server-message';
import { padAmount, pressPadKey } from '../utils/amount-pad';
import type { PadKey } from '../utils/amount-pad';

const KEYS: readonly PadKey[] = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '.', '0', 'back'];

const keyClass = `${focusRing} flex min-h-16 items-center justify-center rounded-xl border border-slate-300 bg-white text-3xl font-semibold text-slate-900 shadow-sm active:bg-slate-200 hover:bg-slate-50`;

/**
 * The terminal's amount: large digits typed on a numeric pad (also from a keyboard: digits, point,
 * Backspace, Escape), then "Take ₹… by palm".
 */
export function AmountPad({
  notice,
  storeName,
  onCharge,
}: {
  /** The last payment's outcome when it did not go through (a code step cancelled or expired). */
  notice: string | null;
  storeName: string;
  onCharge: (amountText: string) => void;
}) {
  const { t } = useTranslation('devices');
  const [text, setText] = useState('');
  const amount = padAmount(text);
  const press = (key: PadKey): void => setText((current) => pressPadKey(current, key));

  return (
    <div
      className="space-y-4"
      onKeyDown={(event) => {
        if (/^[0-9.]$/.test(event.key)) press(event.key as PadKey);
        else if (event.key === 'Backspace') press('back');
        else if (event.key === 'Escape') press('clear');
        else return;
        event.preventDefault();
      }}
    >
      {notice === null ? null : (
        <p role="alert" className="rounded-lg bg-amber-50 px-4 py-3 text-lg text-amber-950">
          {translateMessage(notice)}
        </p>
      )}
      <div>
        <p id="terminal-amount-label" className="text-lg font-medium text-slate-700">
          {t('terminal.amountLabel')}
        </p>
        <output
          aria-labelledby="terminal-amount-label"
          aria-live="polite"
          className="mt-1 block rounded-xl bg-slate-900 px-4 py-3 text-right font-mono text-5xl font-bold text-white sm:text-6xl"
          data-testid="terminal-amount"
        >
          {text === '' ? t('terminal.amountEmpty') : `₹${text}`}
        </output>
        <p className="sr-only">{storeName}</p>
      </div>
      <div role="group" aria-label={t('terminal.keypadLabel')} className="grid grid-cols-3 gap-2 sm:gap-3">
        {KEYS.map((key) => (
          <button
            key={key}
            type="button"
            className={keyClass}
            aria-label={
              key === '.' ? t('terminal.decimalPoint') : key === 'back' ? t('terminal.backspace') : undefined
            }
            onClick={() => press(key)}
          >
            {key === 'back' ? '⌫' : key}
          </button>
        ))}
      </div>
      <div className="grid grid-cols-[1fr_2fr] gap-2 sm:gap-3">
        <button
          type="button"
          className={`${secondaryButtonClass} py-4 text-lg`}
          onClick={() => press('clear')}
        >
          {t('terminal.clear')}
        </button>
        <button
          type="button"
          className={`${primaryButtonClass} ${disabledClass} py-4 text-lg`}
          disabled={amount === null}
          onClick={() => {
            if (amount !== null) onCharge(amount.text);
          }}
        >
          {amount === null
            ? t('terminal.charge', { amount: t('terminal.amountEmpty') })
            : t('terminal.charge', { amount: formatMoney(amount.text) })}
        </button>
      </div>
    </div>
  );
}
