import { changePasswordResponseSchema } from '@hasta/contracts/auth';
import { PASSWORD_MIN_LENGTH } from '@hasta/contracts/constants';
import { messages } from '@hasta/contracts/messages';
import { z } from 'zod';

import { apiRequest } from './api-client';

/**
 * Changing one's password: the settings dialog on the user dashboard (spec §2.11) and the forced change after
 * an admin reset share the rules (spec §5.5) and the call. The server ends the user's other sessions and
 * gives this browser a fresh cookie.
 */
export const CHANGE_PASSWORD_ENDPOINT = '/api/auth/change-password';

export const changePasswordFormSchema = z
  .object({ currentPassword: z.string(), newPassword: z.string(), confirmPassword: z.string() })
  .superRefine((values, ctx) => {
    const empty = (['currentPassword', 'newPassword', 'confirmPassword'] as const).find(
      (field) => values[field] === '',
    );
    if (empty !== undefined) {
      ctx.addIssue({ code: 'custom', message: messages.allFieldsRequired, path: [empty] });
      return;
    }
    if (values.newPassword.length < PASSWORD_MIN_LENGTH) {
      ctx.addIssue({ code: 'custom', message: messages.newPasswordMinLength, path: ['newPassword'] });
      return;
    }
    if (values.newPassword !== values.confirmPassword) {
      ctx.addIssue({ code: 'custom', message: messages.passwordsDoNotMatch, path: ['confirmPassword'] });
    }
  });
export type ChangePasswordFormValues = z.input<typeof changePasswordFormSchema>;

export const emptyChangePasswordForm: ChangePasswordFormValues = {
  currentPassword: '',
  newPassword: '',
  confirmPassword: '',
};

export type ChangePasswordAnswer = z.infer<typeof changePasswordResponseSchema>;

export function changePassword(input: {
  /** The signed-in user's id; the server refuses any other. */
  userId?: string;
  originalPassword: string;
  newPassword: string;
}): Promise<ChangePasswordAnswer> {
  return apiRequest(CHANGE_PASSWORD_ENDPOINT, {
    method: 'POST',
    body: input,
    schema: changePasswordResponseSchema,
  });
}
