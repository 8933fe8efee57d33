import { describe, expect, it } from 'vitest';
import type { OtpPurpose } from '../db/schema';
import { otpPurposeOf } from './otp-purpose';

/** A stand-in for the address's live codes, newest first. */
function liveCodes(...newestFirst: OtpPurpose[]) {
  return async (purposes: OtpPurpose[]) => newestFirst.find((purpose) => purposes.includes(purpose));
}

describe('otpPurposeOf', () => {
  it('keeps the purpose the client sent, at either step', async () => {
    for (const purpose of ['login', 'registration', 'transfer', 'password_reset'] as const) {
      expect(await otpPurposeOf(purpose, { step: 'send', signedIn: true, hasAccount: false })).toBe(purpose);
      expect(
        await otpPurposeOf(purpose, {
          step: 'verify',
          signedIn: false,
          newestLivePurpose: liveCodes('login'),
        }),
      ).toBe(purpose);
    }
  });

  it('sends a transfer code to a signed-in caller, else a login or registration code by account', async () => {
    expect(await otpPurposeOf(undefined, { step: 'send', signedIn: true, hasAccount: true })).toBe(
      'transfer',
    );
    expect(await otpPurposeOf(undefined, { step: 'send', signedIn: false, hasAccount: true })).toBe('login');
    expect(await otpPurposeOf(undefined, { step: 'send', signedIn: false, hasAccount: false })).toBe(
      'registration',
    );
  });

  it('checks a signed-in caller’s live transfer code first, else the newest registration or login code', async () => {
    const verify = (signedIn: boolean, ...live: OtpPurpose[]) =>
      otpPurposeOf(undefined, { step: 'verify', signedIn, newestLivePurpose: liveCodes(...live) });
    expect(await verify(true, 'login', 'transfer')).toBe('transfer');
    expect(await verify(false, 'transfer', 'login')).toBe('login');
    expect(await verify(true, 'login')).toBe('login');
    expect(await verify(false, 'registration', 'login')).toBe('registration');
    expect(await verify(false, 'password_reset')).toBe('registration');
    expect(await verify(false)).toBe('registration');
  });
});
