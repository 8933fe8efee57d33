import type { PublicUser } from '@hasta/contracts/auth';
import { messages } from '@hasta/contracts/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'react-hot-toast';
import { useTranslation } from 'react-i18next';

import { FormAlert, TextField } from '../../../components/form-field';
import { disabledClass, linkButtonClass, primaryButtonClass } from '../../../components/ui-classes';
import { errorMessage } from '../../../lib/api-client';
import { changePassword, changePasswordFormSchema } from '../../../lib/change-password';
import type { ChangePasswordFormValues } from '../../../lib/change-password';
import { formErrorMessage } from '../../../lib/form-errors';

interface ForcedPasswordChangeProps {
  user: PublicUser;
  /** The temporary password just typed to log in; unknown after an OTP login, so then it is asked for. */
  knownPassword: string | null;
  onDone: (user: PublicUser) => void;
  onCancel: () => void;
}

/**
 * After an admin reset, or at a new store owner's first sign-in with the temporary password of their welcome
 * email, the user must choose a new password before going on (the server refuses everything else until
 * then). The temporary password is the current one; the page says which of the two this is.
 */
export function ForcedPasswordChange({ user, knownPassword, onDone, onCancel }: ForcedPasswordChangeProps) {
  const { t } = useTranslation(['auth', 'messages']);
  const first = user.first_sign_in === true;
  const errorId = useId();
  const form = useForm<ChangePasswordFormValues>({
    resolver: zodResolver(changePasswordFormSchema),
    defaultValues: { currentPassword: knownPassword ?? '', newPassword: '', confirmPassword: '' },
  });
  const { errors } = form.formState;

  const save = useMutation({
    mutationFn: (values: ChangePasswordFormValues) =>
      changePassword({
        userId: user.id,
        originalPassword: values.currentPassword,
        newPassword: values.newPassword,
      }),
    onSuccess: (answer) => {
      toast.success(answer.message);
      onDone(answer.user);
    },
    onError: (error) => {
      form.setError('root.server', { message: errorMessage(error, messages.failedToChangePassword) });
    },
  });

  const message = formErrorMessage(errors);
  return (
    <form
      noValidate
      className="space-y-5"
      onSubmit={form.handleSubmit((values) => save.mutate(values))}
      aria-labelledby={`${errorId}-title`}
    >
      <div>
        <h2 id={`${errorId}-title`} className="text-xl font-semibold text-slate-900">
          {first ? t('forced.firstTitle') : t('forced.title')}
        </h2>
        <p className="mt-1 text-slate-600">
          {first ? t('forced.first') : t('forced.reset')} {t('messages:passwordChangeRequired')}
        </p>
      </div>
      {knownPassword === null ? (
        <TextField
          label={t('forced.temporary')}
          type="password"
          autoComplete="current-password"
          invalid={errors.currentPassword !== undefined}
          errorId={errorId}
          {...form.register('currentPassword')}
        />
      ) : null}
      <TextField
        label={t('forced.new')}
        type="password"
        autoComplete="new-password"
        autoFocus
        invalid={errors.newPassword !== undefined}
        errorId={errorId}
        {...form.register('newPassword')}
      />
      <TextField
        label={t('forced.confirm')}
        type="password"
        autoComplete="new-password"
        invalid={errors.confirmPassword !== undefined}
        errorId={errorId}
        {...form.register('confirmPassword')}
      />
      <FormAlert id={errorId} message={message} />
      <div className="flex flex-wrap items-center gap-4">
        <button type="submit" className={`${primaryButtonClass} ${disabledClass}`} disabled={save.isPending}>
          {save.isPending ? t('forced.saving') : t('forced.save')}
        </button>
        <button type="button" className={linkButtonClass} onClick={onCancel}>
          {t('forced.back')}
        </button>
      </div>
    </form>
  );
}
