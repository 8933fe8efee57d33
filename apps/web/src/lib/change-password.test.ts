import { messages } from '@hasta/contracts/messages';
import { describe, expect, it } from 'vitest';

import { changePasswordFormSchema } from './change-password';

function messageFor(values: { currentPassword: string; newPassword: string; confirmPassword: string }) {
  const result = changePasswordFormSchema.safeParse(values);
  return result.success ? null : result.error.issues.map((issue) => issue.message);
}

describe('changePasswordFormSchema (spec §5.5)', () => {
  it.each([
    [{ currentPassword: '', newPassword: 'secret1', confirmPassword: 'secret1' }, messages.allFieldsRequired],
    [{ currentPassword: 'old', newPassword: '', confirmPassword: '' }, messages.allFieldsRequired],
    [
      { currentPassword: 'old', newPassword: 'short', confirmPassword: 'short' },
      messages.newPasswordMinLength,
    ],
    [
      { currentPassword: 'old', newPassword: 'secret1', confirmPassword: 'secret2' },
      messages.passwordsDoNotMatch,
    ],
  ])('%j -> %s', (values, message) => {
    expect(messageFor(values)).toEqual([message]);
  });

  it('accepts a complete, matching change', () => {
    expect(
      messageFor({ currentPassword: 'old', newPassword: 'secret', confirmPassword: 'secret' }),
    ).toBeNull();
  });
});
