import { describe, expect, it } from 'vitest';

import { ApiError } from './api-client';
import {
  OTP_ATTEMPT_HISTORY_KEY,
  OTP_SEND_HISTORY_KEY,
  canAttemptOtp,
  canSendOtp,
  clearOtpAttempts,
  isRejectedCode,
  recordFailedOtpAttempt,
  recordOtpSend,
} from './otp-throttle';

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
    json: (key: string): unknown => JSON.parse(data.get(key) ?? 'null'),
  };
}

const MINUTE = 60_000;
const T0 = 1_750_000_000_000;

describe('OTP send throttle (3 per 10 minutes)', () => {
  it('refuses a fourth send within 10 minutes, per identifier, and allows it once the window passes', () => {
    const storage = memoryStorage();
    for (let i = 0; i < 3; i += 1) {
      expect(canSendOtp('a@x.in', T0 + i * MINUTE, storage)).toBe(true);
      recordOtpSend('a@x.in', T0 + i * MINUTE, storage);
    }
    expect(canSendOtp('a@x.in', T0 + 3 * MINUTE, storage)).toBe(false);
    expect(canSendOtp('+919876543210', T0 + 3 * MINUTE, storage)).toBe(true);
    expect(canSendOtp('a@x.in', T0 + 10 * MINUTE + 1, storage)).toBe(true);
    expect(storage.json(OTP_SEND_HISTORY_KEY)).toEqual({ 'a@x.in': [T0, T0 + MINUTE, T0 + 2 * MINUTE] });
  });

  it('treats unreadable history as empty', () => {
    const storage = memoryStorage({ [OTP_SEND_HISTORY_KEY]: '{oops', [OTP_ATTEMPT_HISTORY_KEY]: '[1,2]' });
    expect(canSendOtp('a@x.in', T0, storage)).toBe(true);
    expect(canAttemptOtp('a@x.in', T0, storage)).toBe(true);
    recordOtpSend('a@x.in', T0, storage);
    expect(storage.json(OTP_SEND_HISTORY_KEY)).toEqual({ 'a@x.in': [T0] });
  });

  it('keeps a bounded number of identifiers', () => {
    const storage = memoryStorage();
    for (let i = 0; i < 60; i += 1) recordOtpSend(`u${i}@x.in`, T0 + i, storage);
    const kept = Object.keys(storage.json(OTP_SEND_HISTORY_KEY) as object);
    expect(kept).toHaveLength(50);
    expect(kept).toContain('u59@x.in');
    expect(kept).not.toContain('u0@x.in');
  });
});

describe('OTP attempt throttle (5 failures per 15 minutes)', () => {
  it('refuses after five failures and clears on success', () => {
    const storage = memoryStorage();
    for (let i = 0; i < 5; i += 1) recordFailedOtpAttempt('a@x.in', T0 + i, storage);
    expect(canAttemptOtp('a@x.in', T0 + 10, storage)).toBe(false);
    expect(canAttemptOtp('a@x.in', T0 + 15 * MINUTE + 5, storage)).toBe(true);
    clearOtpAttempts('a@x.in', storage);
    expect(canAttemptOtp('a@x.in', T0 + 10, storage)).toBe(true);
  });
});

describe('isRejectedCode', () => {
  it('counts 4xx refusals but not throttles or network failures', () => {
    expect(isRejectedCode(new ApiError(400, 'BAD_REQUEST', 'x'))).toBe(true);
    expect(isRejectedCode(new ApiError(401, 'UNAUTHORIZED', 'x'))).toBe(true);
    expect(isRejectedCode(new ApiError(429, 'RATE_LIMITED', 'x'))).toBe(false);
    expect(isRejectedCode(new ApiError(0, 'NETWORK_UNAVAILABLE', 'x'))).toBe(false);
    expect(isRejectedCode(new Error('x'))).toBe(false);
  });
});
