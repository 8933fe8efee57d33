import { describe, expect, it } from 'vitest';

import {
  continueLabel,
  handButtonLabel,
  readRegisterParams,
  registrationProgress,
  registrationStatusText,
  scanningBanner,
  successTexts,
} from './registration-texts';

const none = { left: false, right: false };
const left = { left: true, right: false };
const right = { left: false, right: true };
const both = { left: true, right: true };

describe('palm registration texts (spec §2.12)', () => {
  it('progress is 0, 50 or 100 %', () => {
    expect([none, left, right, both].map(registrationProgress)).toEqual([0, 50, 50, 100]);
  });

  it('status text per state', () => {
    expect(registrationStatusText(none)).toBe('Choose which hand(s) you want to register');
    expect(registrationStatusText(left)).toBe(
      'Left hand registered ✓ - You can register right hand or continue',
    );
    expect(registrationStatusText(right)).toBe(
      'Right hand registered ✓ - You can register left hand or continue',
    );
    expect(registrationStatusText(both)).toBe('Both hands registered ✓');
  });

  it('hand buttons', () => {
    expect(handButtonLabel('left', none)).toBe('Register Left Hand');
    expect(handButtonLabel('right', none)).toBe('Register Right Hand');
    expect(handButtonLabel('left', left)).toBe('Left Hand ✓ Registered');
    expect(handButtonLabel('right', left)).toBe('Register Right Hand');
    expect(handButtonLabel('right', right)).toBe('Right Hand ✓ Registered');
    expect(handButtonLabel('left', both)).toBe('Already Registered');
    expect(handButtonLabel('right', both)).toBe('Already Registered');
  });

  it('continue appears once a hand is registered, and returns once both are', () => {
    expect(continueLabel(none, false)).toBeNull();
    expect(continueLabel(left, false)).toBe('Continue to Dashboard');
    expect(continueLabel(right, true)).toBe('Continue to Admin');
    expect(continueLabel(both, false)).toBe('Return to Dashboard');
    expect(continueLabel(both, true)).toBe('Return to Admin');
  });

  it('banner and success panel', () => {
    expect(scanningBanner('left')).toEqual({
      title: 'Registering your LEFT hand',
      instruction: 'Place your left hand on the scanner',
    });
    expect(successTexts('right', false)).toEqual({
      title: 'Registration Complete!',
      detail: 'Right hand has been registered successfully.',
      redirect: 'Redirecting to dashboard...',
    });
    expect(successTexts('left', true).redirect).toBe('Redirecting to admin dashboard...');
  });

  it('reads the query parameters', () => {
    expect(
      readRegisterParams(new URLSearchParams('user_id=abc&user_email=a%40b.in&admin_mode=true&hand=right')),
    ).toEqual({ adminMode: true, userId: 'abc', userEmail: 'a@b.in', hand: 'right' });
    expect(readRegisterParams(new URLSearchParams('admin_mode=yes&hand=both'))).toEqual({
      adminMode: false,
      userId: null,
      userEmail: null,
      hand: null,
    });
  });
});
