import { useTranslation } from 'react-i18next';
import { OTP_LENGTH } from '@hasta/contracts/constants';
import { useRef } from 'react';
import type { ClipboardEvent, KeyboardEvent } from 'react';

import { focusRing } from '../../../components/ui-classes';
import { fillDigits } from '../utils/otp-digits';

interface OtpInputProps {
  digits: readonly string[];
  onChange: (digits: string[]) => void;
  /** The group's visible legend. */
  legend: string;
  invalid?: boolean;
  errorId?: string;
  disabled?: boolean;
  autoFocus?: boolean;
}

/**
 * Six single-digit boxes (spec §2.8, §5.6): digits only, typing moves to the next box, Backspace on an empty
 * box goes back, and pasting a code fills every box.
 */
export function OtpInput({
  digits,
  onChange,
  legend,
  invalid = false,
  errorId,
  disabled,
  autoFocus,
}: OtpInputProps) {
  const { t } = useTranslation('auth');
  const boxes = useRef<Array<HTMLInputElement | null>>([]);

  const focusBox = (index: number): void => {
    const box = boxes.current[Math.max(0, Math.min(index, OTP_LENGTH - 1))];
    box?.focus();
    box?.select();
  };

  const setDigit = (index: number, digit: string): void => {
    const next = [...digits];
    next[index] = digit;
    onChange(next);
  };

  const fill = (index: number, text: string): void => {
    const { digits: next, focus } = fillDigits(digits, index, text);
    onChange(next);
    focusBox(focus);
  };

  const onKeyDown = (index: number, event: KeyboardEvent<HTMLInputElement>): void => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const { key } = event;
    if (/^\d$/.test(key)) {
      event.preventDefault();
      setDigit(index, key);
      if (index < OTP_LENGTH - 1) focusBox(index + 1);
    } else if (key === 'Backspace') {
      event.preventDefault();
      if (digits[index] !== '') {
        setDigit(index, '');
      } else if (index > 0) {
        setDigit(index - 1, '');
        focusBox(index - 1);
      }
    } else if (key === 'Delete') {
      event.preventDefault();
      setDigit(index, '');
    } else if (key === 'ArrowLeft') {
      event.preventDefault();
      focusBox(index - 1);
    } else if (key === 'ArrowRight') {
      event.preventDefault();
      focusBox(index + 1);
    } else if (key.length === 1) {
      event.preventDefault(); // digits only
    }
  };

  const onPaste = (index: number, event: ClipboardEvent<HTMLInputElement>): void => {
    event.preventDefault();
    fill(index, event.clipboardData.getData('text'));
  };

  return (
    <fieldset aria-describedby={invalid ? errorId : undefined}>
      <legend className="text-sm font-medium text-slate-800">{legend}</legend>
      <div className="mt-2 flex gap-2">
        {digits.map((digit, index) => (
          <input
            // The boxes are positions, never reordered.
            key={index}
            ref={(element) => {
              boxes.current[index] = element;
            }}
            type="text"
            inputMode="numeric"
            pattern="[0-9]*"
            autoComplete={index === 0 ? 'one-time-code' : 'off'}
            aria-label={t('otp.digit', { index: index + 1, count: OTP_LENGTH })}
            aria-invalid={invalid}
            value={digit}
            disabled={disabled}
            autoFocus={autoFocus === true && index === 0}
            onFocus={(event) => event.currentTarget.select()}
            onKeyDown={(event) => onKeyDown(index, event)}
            onPaste={(event) => onPaste(index, event)}
            // Typing is handled on keydown; this catches autofill, mobile keyboards and other input methods.
            onChange={(event) => {
              const typed = event.currentTarget.value.replace(/\D/g, '');
              if (typed === '') setDigit(index, '');
              else fill(index, typed.length > 1 && digit !== '' ? typed.replace(digit, '') || digit : typed);
            }}
            className={`h-12 w-11 rounded-lg border border-slate-400 bg-white text-center text-xl font-semibold text-slate-900 shadow-sm aria-[invalid=true]:border-red-700 disabled:bg-slate-100 ${focusRing}`}
          />
        ))}
      </div>
    </fieldset>
  );
}
