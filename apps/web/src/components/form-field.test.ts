import { describe, expect, it } from 'vitest';

import { otpDigits } from './form-field';

describe('the one-time code input', () => {
  it('keeps the digits of what is typed, 6 at most', () => {
    expect(otpDigits('12a3 45-678')).toBe('123456');
    expect(otpDigits('٣')).toBe('');
    expect(otpDigits('')).toBe('');
  });
});
