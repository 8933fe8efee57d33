import { useTranslation } from 'react-i18next';
import { PHONE_DEFAULT_PREFIX } from '@hasta/contracts/constants';
import type { KeyboardEvent } from 'react';

import { TextField } from '../../../components/form-field';
import { focusRing } from '../../../components/ui-classes';
import type { Channel } from '../utils/contact';
import { keepPhonePrefix } from '../utils/contact';

const CHANNEL_LABELS = { phone: 'contact.phone', email: 'contact.email' } as const satisfies Record<
  Channel,
  string
>;

/** The Phone / Email toggle of the login page (spec §2.8): two pressed-state buttons. */
export function ChannelToggle({
  channel,
  onChange,
  disabled,
}: {
  channel: Channel;
  onChange: (channel: Channel) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation('auth');
  return (
    <div
      role="group"
      aria-label={t('contact.logInWith')}
      className="inline-flex rounded-lg border border-slate-300 p-1"
    >
      {(['phone', 'email'] as const).map((option) => {
        const active = option === channel;
        return (
          <button
            key={option}
            type="button"
            aria-pressed={active}
            disabled={disabled}
            onClick={() => onChange(option)}
            className={`${focusRing} rounded-md px-4 py-1.5 text-sm font-semibold transition-colors ${
              active ? 'bg-emerald-700 text-white' : 'text-slate-700 hover:bg-slate-100'
            }`}
          >
            {t(CHANNEL_LABELS[option])}
          </button>
        );
      })}
    </div>
  );
}

interface ContactFieldProps {
  channel: Channel;
  email: string;
  phone: string;
  onEmailChange: (email: string) => void;
  onPhoneChange: (phone: string) => void;
  /** While locked the phone field keeps its '+91 ' prefix; a double-click unlocks it (spec §2.8). */
  prefixLocked: boolean;
  onUnlockPrefix: () => void;
  invalid: boolean;
  errorId: string;
  disabled?: boolean;
}

/** The email field, or the phone field with its protected '+91 ' prefix. */
export function ContactField({
  channel,
  email,
  phone,
  onEmailChange,
  onPhoneChange,
  prefixLocked,
  onUnlockPrefix,
  invalid,
  errorId,
  disabled,
}: ContactFieldProps) {
  const { t } = useTranslation('auth');
  if (channel === 'email') {
    return (
      <TextField
        key="email"
        label={t('contact.emailLabel')}
        type="email"
        name="email"
        autoComplete="email"
        inputMode="email"
        placeholder="you@example.com"
        value={email}
        onChange={(event) => onEmailChange(event.currentTarget.value)}
        invalid={invalid}
        errorId={errorId}
        disabled={disabled}
      />
    );
  }

  const guardPrefix = (event: KeyboardEvent<HTMLInputElement>): void => {
    if (!prefixLocked) return;
    const { selectionStart, selectionEnd } = event.currentTarget;
    if (selectionStart === null || selectionEnd === null) return;
    const collapsed = selectionStart === selectionEnd;
    const prefixLength = PHONE_DEFAULT_PREFIX.length;
    if (event.key === 'Backspace' && collapsed && selectionStart <= prefixLength) event.preventDefault();
    if (event.key === 'Delete' && collapsed && selectionStart < prefixLength) event.preventDefault();
  };

  return (
    <TextField
      key="phone"
      label={t('contact.phoneLabel')}
      type="tel"
      name="phone"
      autoComplete="tel"
      inputMode="tel"
      value={phone}
      onChange={(event) => {
        const next = event.currentTarget.value;
        onPhoneChange(prefixLocked ? keepPhonePrefix(next) : next);
      }}
      onKeyDown={guardPrefix}
      onSelect={(event) => {
        // Keep the caret out of the locked prefix.
        const input = event.currentTarget;
        const prefixLength = PHONE_DEFAULT_PREFIX.length;
        if (!prefixLocked || input.selectionStart !== input.selectionEnd) return;
        if ((input.selectionStart ?? prefixLength) < prefixLength) {
          input.setSelectionRange(prefixLength, prefixLength);
        }
      }}
      onDoubleClick={() => {
        if (prefixLocked) onUnlockPrefix();
      }}
      hint={
        prefixLocked
          ? t('contact.prefixLocked', { prefix: PHONE_DEFAULT_PREFIX.trim() })
          : t('contact.prefixUnlocked')
      }
      invalid={invalid}
      errorId={errorId}
      disabled={disabled}
    />
  );
}
