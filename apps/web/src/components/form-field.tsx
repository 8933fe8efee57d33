import { OTP_LENGTH } from '@hasta/contracts/constants';
import { useId } from 'react';
import type { ComponentProps, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { translateMessage } from '../lib/server-message';

import { inputClass, labelClass } from './ui-classes';

interface TextFieldProps extends Omit<ComponentProps<'input'>, 'className'> {
  label: string;
  /** Marks the field invalid and points it at the form's alert. */
  invalid?: boolean;
  errorId?: string;
  hint?: ReactNode;
}

/**
 * A rupee amount: a number with two decimals at most, at least ₹0.01 (spec §9). The form still checks the
 * text itself (money is parsed to paise, never read as a float).
 */
export function AmountField(props: Omit<TextFieldProps, 'type' | 'inputMode' | 'min' | 'step'>) {
  return <TextField type="number" inputMode="decimal" min="0.01" step="0.01" {...props} />;
}

/** A typed one-time code as the code input keeps it: digits only, at most 6 (spec §5.11). */
export function otpDigits(text: string): string {
  return text.replace(/\D/g, '').slice(0, OTP_LENGTH);
}

/** Where a one-time code went, as a badge beside its input: 'SMS OTP' or 'Email OTP' (spec §2.13). */
export function CodeChannelBadge({
  channel,
  className = '',
}: {
  channel: 'sms' | 'email';
  className?: string;
}) {
  const { t } = useTranslation('app');
  return (
    <span
      className={`${className} inline-flex items-center rounded-full bg-emerald-100 px-2.5 py-0.5 text-xs font-semibold text-emerald-900`.trim()}
    >
      {t(channel === 'sms' ? 'codeChannel.sms' : 'codeChannel.email')}
    </span>
  );
}

/** A one-time code input: strips non-digits and stops at 6, giving the code to `onCode`. */
export function OtpField({
  onCode,
  ...props
}: Omit<TextFieldProps, 'inputMode' | 'maxLength' | 'onChange'> & { onCode: (code: string) => void }) {
  return (
    <TextField
      inputMode="numeric"
      maxLength={OTP_LENGTH}
      {...props}
      onChange={(event) => onCode(otpDigits(event.target.value))}
    />
  );
}

/** A labelled text input; extra props (including react-hook-form's `register` result) go to the <input>. */
export function TextField({ label, invalid = false, errorId, hint, id, ...input }: TextFieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const hintId = `${inputId}-hint`;
  const describedBy = [hint === undefined ? null : hintId, invalid ? (errorId ?? null) : null]
    .filter((part) => part !== null)
    .join(' ');
  return (
    <div>
      <label htmlFor={inputId} className={labelClass}>
        {label}
      </label>
      <input
        id={inputId}
        aria-invalid={invalid}
        aria-describedby={describedBy === '' ? undefined : describedBy}
        className={inputClass}
        {...input}
      />
      {hint === undefined ? null : (
        <p id={hintId} className="mt-1 text-sm text-slate-600">
          {hint}
        </p>
      )}
    </div>
  );
}

/**
 * The one message a form shows (validation or the server's answer). The live region stays mounted so a
 * screen reader announces each new message.
 */
export function FormAlert({ id, message }: { id: string; message: string | null }) {
  // A catalogue message (validation, a server answer) in the page's language, re-rendered on a switch.
  useTranslation();
  return (
    <div id={id} role="alert" className={message === null ? undefined : 'rounded-lg bg-red-50 px-3 py-2'}>
      {message === null ? null : (
        <p className="text-sm font-medium text-red-800">{translateMessage(message)}</p>
      )}
    </div>
  );
}

/** A success or progress note, announced politely. */
export function FormStatus({ message }: { message: string | null }) {
  useTranslation();
  return (
    <div role="status" className={message === null ? undefined : 'rounded-lg bg-emerald-50 px-3 py-2'}>
      {message === null ? null : (
        <p className="text-sm font-medium text-emerald-900">{translateMessage(message)}</p>
      )}
    </div>
  );
}
