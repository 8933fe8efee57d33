import { messages } from '@hasta/contracts/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { toast } from 'react-hot-toast';
import { useTranslation } from 'react-i18next';

import { errorMessage } from '../lib/api-client';
import { storeLogin, useStoredUser } from '../lib/auth-storage';
import { changePassword, changePasswordFormSchema, emptyChangePasswordForm } from '../lib/change-password';
import type { ChangePasswordFormValues } from '../lib/change-password';
import { formErrorMessage } from '../lib/form-errors';
import { TextField } from './form-field';
import { Modal } from './modal';
import { PasskeysList } from './passkeys-list';
import { SessionsList } from './sessions-list';
import { disabledClass, primaryButtonClass } from './ui-classes';

/**
 * The dialog's one toast: each outcome replaces the last (issue 27), so a success never shows beside an
 * earlier attempt's "All fields are required.".
 */
const TOAST_ID = 'change-password';

/**
 * The Change Password dialog of the user dashboard (spec §2.11, §4, §5.5): current, new and confirm fields;
 * problems and the outcome are toasts; the button reads 'Changing...' in flight; success closes the dialog
 * and clears its fields.
 */
export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('app');
  const user = useStoredUser();
  const form = useForm<ChangePasswordFormValues>({
    resolver: zodResolver(changePasswordFormSchema),
    defaultValues: emptyChangePasswordForm,
  });

  const close = (): void => {
    form.reset(emptyChangePasswordForm);
    onClose();
  };

  const save = useMutation({
    mutationFn: (values: ChangePasswordFormValues) =>
      changePassword({
        ...(user === null ? {} : { userId: String(user.id) }),
        originalPassword: values.currentPassword,
        newPassword: values.newPassword,
      }),
    onSuccess: (answer) => {
      storeLogin(answer.user);
      toast.success(answer.message, { id: TOAST_ID });
      close();
    },
    onError: (error) => {
      toast.error(errorMessage(error, messages.failedToChangePassword), { id: TOAST_ID });
    },
  });

  const { errors } = form.formState;
  return (
    <Modal open={open} title={t('changePassword.title')} onClose={close}>
      <form
        noValidate
        className="space-y-4"
        onSubmit={form.handleSubmit(
          (values) => save.mutate(values),
          (invalid) => {
            const message = formErrorMessage(invalid);
            if (message !== null) toast.error(message, { id: TOAST_ID });
          },
        )}
      >
        <TextField
          label={t('changePassword.current')}
          type="password"
          autoComplete="current-password"
          invalid={errors.currentPassword !== undefined}
          {...form.register('currentPassword')}
        />
        <TextField
          label={t('changePassword.new')}
          type="password"
          autoComplete="new-password"
          invalid={errors.newPassword !== undefined}
          {...form.register('newPassword')}
        />
        <TextField
          label={t('changePassword.confirm')}
          type="password"
          autoComplete="new-password"
          invalid={errors.confirmPassword !== undefined}
          {...form.register('confirmPassword')}
        />
        <button type="submit" className={`${primaryButtonClass} ${disabledClass}`} disabled={save.isPending}>
          {save.isPending ? t('changePassword.submitting') : t('changePassword.submit')}
        </button>
      </form>
      {open ? <PasskeysList /> : null}
      {open ? <SessionsList /> : null}
    </Modal>
  );
}
