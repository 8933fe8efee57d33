import { messages } from '@hasta/contracts/messages';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';

import {
  isCompleteCode,
  passwordResetFormSchema,
  registerFormSchema,
  registerPasswordSchema,
} from './form-schemas';

/** The one message a form shows, and the field it sits on. */
function firstIssue(schema: z.ZodType, values: unknown): { path: string; message: string } | null {
  const result = schema.safeParse(values);
  if (result.success) return null;
  expect(result.error.issues).toHaveLength(1);
  const [issue] = result.error.issues;
  return { path: issue?.path.join('.') ?? '', message: issue?.message ?? '' };
}

describe('registerFormSchema (spec §5.7)', () => {
  it.each([
    [{ username: '', contact: '' }, 'contact', messages.registerIdentityRequired],
    [{ username: '', contact: 'a@b.in' }, 'username', messages.registerIdentityRequired],
    [{ username: 'asha', contact: '  ' }, 'contact', messages.registerIdentityRequired],
    [{ username: 'a', contact: 'not-an-email' }, 'contact', messages.registerInvalidContact],
    [{ username: 'asha', contact: '12345' }, 'contact', messages.registerInvalidContact],
    [{ username: 'a', contact: 'a@b.in' }, 'username', messages.usernameMinLength],
  ])('%j -> %s: %s', (values, path, message) => {
    expect(firstIssue(registerFormSchema, values)).toEqual({ path, message });
  });

  it('accepts an email or a phone number', () => {
    expect(firstIssue(registerFormSchema, { username: 'as', contact: 'a@b.in' })).toBeNull();
    expect(firstIssue(registerFormSchema, { username: 'as', contact: '+91 98765 43210' })).toBeNull();
  });
});

describe('registerPasswordSchema (spec §5.7)', () => {
  it.each([
    [
      { username: 'a', password: 'secret1', confirmPassword: 'secret1' },
      'username',
      messages.usernameMinLength,
    ],
    [
      { username: 'asha', password: '', confirmPassword: 'x' },
      'password',
      messages.passwordAndConfirmRequired,
    ],
    [
      { username: 'asha', password: 'x', confirmPassword: '' },
      'confirmPassword',
      messages.passwordAndConfirmRequired,
    ],
    [
      { username: 'asha', password: 'short', confirmPassword: 'short' },
      'password',
      messages.passwordMinLength,
    ],
    [
      { username: 'asha', password: 'secret1', confirmPassword: 'secret2' },
      'confirmPassword',
      messages.passwordsDoNotMatch,
    ],
  ])('%j -> %s: %s', (values, path, message) => {
    expect(firstIssue(registerPasswordSchema, values)).toEqual({ path, message });
  });

  it('accepts matching passwords of 6 characters or more', () => {
    const values = { username: 'asha', password: 'secret', confirmPassword: 'secret' };
    expect(firstIssue(registerPasswordSchema, values)).toBeNull();
  });
});

describe('passwordResetFormSchema', () => {
  it('checks the code first, then the new password', () => {
    expect(firstIssue(passwordResetFormSchema, { code: '12345', password: '', confirmPassword: '' })).toEqual(
      {
        path: 'code',
        message: messages.enterSixDigitCode,
      },
    );
    expect(
      firstIssue(passwordResetFormSchema, { code: '123456', password: 'secret1', confirmPassword: 'x' }),
    ).toEqual({ path: 'confirmPassword', message: messages.passwordsDoNotMatch });
  });
});

describe('isCompleteCode', () => {
  it('needs exactly six digits', () => {
    expect(isCompleteCode('123456')).toBe(true);
    expect(isCompleteCode('12345')).toBe(false);
    expect(isCompleteCode('1234567')).toBe(false);
    expect(isCompleteCode('12a456')).toBe(false);
  });
});
