import { OTP_LENGTH, PASSWORD_MIN_LENGTH, USERNAME_MIN_LENGTH } from '@hasta/contracts/constants';
import { messages } from '@hasta/contracts/messages';
import { z } from 'zod';

import { parseRegisterContact } from './contact';

/**
 * The auth forms' rules (spec §5.6, §5.7). Each form reports one message at a time, in the spec's order, on
 * the field it concerns; the texts are the catalogue's.
 */

const OTP_PATTERN = new RegExp(`^\\d{${OTP_LENGTH}}$`);

export function isCompleteCode(code: string): boolean {
  return OTP_PATTERN.test(code);
}

// Register, step "form"
export const registerFormSchema = z
  .object({ username: z.string(), contact: z.string() })
  .superRefine((values, ctx) => {
    const username = values.username.trim();
    const contact = values.contact.trim();
    if (username === '' || contact === '') {
      const path = contact === '' ? 'contact' : 'username';
      ctx.addIssue({ code: 'custom', message: messages.registerIdentityRequired, path: [path] });
      return;
    }
    if (parseRegisterContact(contact) === null) {
      ctx.addIssue({ code: 'custom', message: messages.registerInvalidContact, path: ['contact'] });
      return;
    }
    if (username.length < USERNAME_MIN_LENGTH) {
      ctx.addIssue({ code: 'custom', message: messages.usernameMinLength, path: ['username'] });
    }
  });
export type RegisterFormValues = z.input<typeof registerFormSchema>;

function checkNewPassword(
  values: { password: string; confirmPassword: string },
  ctx: z.RefinementCtx,
): boolean {
  if (values.password === '' || values.confirmPassword === '') {
    const path = values.password === '' ? 'password' : 'confirmPassword';
    ctx.addIssue({ code: 'custom', message: messages.passwordAndConfirmRequired, path: [path] });
    return false;
  }
  if (values.password.length < PASSWORD_MIN_LENGTH) {
    ctx.addIssue({ code: 'custom', message: messages.passwordMinLength, path: ['password'] });
    return false;
  }
  if (values.password !== values.confirmPassword) {
    ctx.addIssue({ code: 'custom', message: messages.passwordsDoNotMatch, path: ['confirmPassword'] });
    return false;
  }
  return true;
}

// Register, step "password". The username is asked here only when the step was reached from an email link.
export const registerPasswordSchema = z
  .object({ username: z.string(), password: z.string(), confirmPassword: z.string() })
  .superRefine((values, ctx) => {
    if (values.username.trim().length < USERNAME_MIN_LENGTH) {
      ctx.addIssue({ code: 'custom', message: messages.usernameMinLength, path: ['username'] });
      return;
    }
    checkNewPassword(values, ctx);
  });
export type RegisterPasswordValues = z.input<typeof registerPasswordSchema>;

// Login, forgot password: the code and the new password.
export const passwordResetFormSchema = z
  .object({ code: z.string(), password: z.string(), confirmPassword: z.string() })
  .superRefine((values, ctx) => {
    if (!isCompleteCode(values.code)) {
      ctx.addIssue({ code: 'custom', message: messages.enterSixDigitCode, path: ['code'] });
      return;
    }
    checkNewPassword(values, ctx);
  });
export type PasswordResetFormValues = z.input<typeof passwordResetFormSchema>;
