import { Trans, useTranslation } from 'react-i18next';
import type { SessionAnswer } from '@hasta/contracts/auth';
import { messages } from '@hasta/contracts/messages';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { toast } from 'react-hot-toast';

import { FormAlert, TextField } from '../../../components/form-field';
import { disabledClass, linkButtonClass, primaryButtonClass } from '../../../components/ui-classes';
import { errorMessage } from '../../../lib/api-client';
import { resetForgottenPassword } from '../api/auth-api';
import type { Contact } from '../utils/contact';
import { passwordResetFormSchema } from '../utils/form-schemas';
import type { PasswordResetFormValues } from '../utils/form-schemas';
import { EMPTY_CODE, codeOf } from '../utils/otp-digits';
import { OtpInput } from './otp-input';
import { ResendButton } from './resend-button';

interface PasswordResetFormProps {
  contact: Contact;
  secondsLeft: number;
  resendPending: boolean;
  /** A failed resend, reported by the page that sends codes. */
  resendError: string | null;
  onResend: () => void;
  /** The new session (an admin's or store owner's still takes its passkey step). */
  onDone: (answer: SessionAnswer) => void;
  onBack: () => void;
}

type Field = keyof PasswordResetFormValues;

/** Forgot password, second step: the emailed or texted code and a new password; success signs the user in. */
export function PasswordResetForm({
  contact,
  secondsLeft,
  resendPending,
  resendError,
  onResend,
  onDone,
  onBack,
}: PasswordResetFormProps) {
  const { t } = useTranslation('auth');
  const errorId = useId();
  const [digits, setDigits] = useState<string[]>([...EMPTY_CODE]);
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [problem, setProblem] = useState<{ field: Field | null; message: string } | null>(null);

  const reset = useMutation({
    mutationFn: (values: { code: string; password: string }) =>
      resetForgottenPassword(contact, values.code, values.password),
    onSuccess: (answer) => {
      toast.success(messages.passwordResetDone);
      onDone(answer);
    },
    onError: (error) =>
      setProblem({ field: null, message: errorMessage(error, messages.loginRequestFailed) }),
  });

  const submit = (): void => {
    const values = { code: codeOf(digits), password, confirmPassword };
    const result = passwordResetFormSchema.safeParse(values);
    if (!result.success) {
      const issue = result.error.issues[0];
      setProblem({ field: (issue?.path[0] as Field | undefined) ?? null, message: issue?.message ?? '' });
      return;
    }
    setProblem(null);
    reset.mutate({ code: values.code, password });
  };

  return (
    <form
      noValidate
      className="space-y-5"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <p className="text-slate-700">
        <Trans
          t={t}
          i18nKey="reset.instructions"
          values={{ to: contact.value }}
          components={{ strong: <strong className="text-slate-900" translate="no" /> }}
        />
      </p>
      <OtpInput
        legend={t('reset.code')}
        digits={digits}
        onChange={setDigits}
        invalid={problem?.field === 'code'}
        errorId={errorId}
        autoFocus
      />
      <TextField
        label={t('forced.new')}
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={(event) => setPassword(event.currentTarget.value)}
        invalid={problem?.field === 'password'}
        errorId={errorId}
      />
      <TextField
        label={t('forced.confirm')}
        type="password"
        autoComplete="new-password"
        value={confirmPassword}
        onChange={(event) => setConfirmPassword(event.currentTarget.value)}
        invalid={problem?.field === 'confirmPassword'}
        errorId={errorId}
      />
      <FormAlert id={errorId} message={problem?.message ?? resendError} />
      <div className="flex flex-wrap items-center gap-4">
        <button type="submit" className={`${primaryButtonClass} ${disabledClass}`} disabled={reset.isPending}>
          {reset.isPending ? t('reset.resetting') : t('reset.reset')}
        </button>
        <ResendButton secondsLeft={secondsLeft} pending={resendPending} onResend={onResend} />
        <button type="button" className={linkButtonClass} onClick={onBack}>
          {t('loginForm.backToLogin')}
        </button>
      </div>
    </form>
  );
}
