import {
  OTP_ATTEMPT_WINDOW_MS,
  OTP_MAX_FAILED_ATTEMPTS,
  OTP_MAX_SENDS,
  OTP_SEND_WINDOW_MS,
} from '@hasta/contracts/constants';
import { messages } from '@hasta/contracts/messages';
import { z } from 'zod';

import { ApiError } from './api-client';

/**
 * The client-side OTP throttles of spec §5.12, kept in localStorage per identifier (a normalized email or an
 * E.164 phone): at most 3 sends in 10 minutes, at most 5 failed attempts in 15 minutes (cleared on success).
 * They only spare the user a round trip; the server enforces the same limits and its 429 is what counts.
 */
export const OTP_SEND_HISTORY_KEY = 'otpSendHistory';
export const OTP_ATTEMPT_HISTORY_KEY = 'otpAttemptHistory';

/** Bounds what is kept: identifiers remembered, timestamps per identifier. */
const MAX_IDENTIFIERS = 50;
const MAX_STAMPS_PER_IDENTIFIER = 20;

type History = Record<string, number[]>;
type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem'>;

const historySchema = z.record(z.string(), z.array(z.number().finite()));

interface Limit {
  key: string;
  max: number;
  windowMs: number;
}

const SEND_LIMIT: Limit = { key: OTP_SEND_HISTORY_KEY, max: OTP_MAX_SENDS, windowMs: OTP_SEND_WINDOW_MS };
const ATTEMPT_LIMIT: Limit = {
  key: OTP_ATTEMPT_HISTORY_KEY,
  max: OTP_MAX_FAILED_ATTEMPTS,
  windowMs: OTP_ATTEMPT_WINDOW_MS,
};

function browserStorage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

function read(storage: Storage | null, key: string): History {
  try {
    const raw = storage?.getItem(key) ?? null;
    if (raw === null) return {};
    const parsed = historySchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

/** Drops stamps outside the window and identifiers left with none; keeps the newest identifiers only. */
function prune(history: History, windowMs: number, now: number): History {
  const kept = Object.entries(history)
    .map(([id, stamps]) => [id, stamps.filter((at) => at > now - windowMs && at <= now)] as const)
    .filter(([, stamps]) => stamps.length > 0)
    .map(([id, stamps]) => [id, stamps.slice(-MAX_STAMPS_PER_IDENTIFIER)] as const)
    .sort(([, a], [, b]) => Math.max(...b) - Math.max(...a))
    .slice(0, MAX_IDENTIFIERS);
  return Object.fromEntries(kept);
}

function write(storage: Storage | null, key: string, history: History): void {
  try {
    storage?.setItem(key, JSON.stringify(history));
  } catch {
    // storage full or disabled: the server's limits still apply
  }
}

function countRecent(limit: Limit, identifier: string, now: number, storage: Storage | null): number {
  return prune(read(storage, limit.key), limit.windowMs, now)[identifier]?.length ?? 0;
}

function record(limit: Limit, identifier: string, now: number, storage: Storage | null): void {
  const history = prune(read(storage, limit.key), limit.windowMs, now);
  history[identifier] = [...(history[identifier] ?? []), now];
  write(storage, limit.key, prune(history, limit.windowMs, now));
}

export function canSendOtp(identifier: string, now = Date.now(), storage = browserStorage()): boolean {
  return countRecent(SEND_LIMIT, identifier, now, storage) < SEND_LIMIT.max;
}

export function recordOtpSend(identifier: string, now = Date.now(), storage = browserStorage()): void {
  record(SEND_LIMIT, identifier, now, storage);
}

export function canAttemptOtp(identifier: string, now = Date.now(), storage = browserStorage()): boolean {
  return countRecent(ATTEMPT_LIMIT, identifier, now, storage) < ATTEMPT_LIMIT.max;
}

export function recordFailedOtpAttempt(
  identifier: string,
  now = Date.now(),
  storage = browserStorage(),
): void {
  record(ATTEMPT_LIMIT, identifier, now, storage);
}

export function clearOtpAttempts(identifier: string, storage = browserStorage()): void {
  const history = read(storage, ATTEMPT_LIMIT.key);
  if (!(identifier in history)) return;
  delete history[identifier];
  write(storage, ATTEMPT_LIMIT.key, history);
}

/** The same error the server gives, so screens show one text whichever side refused. */
export function otpSendThrottledError(): ApiError {
  return new ApiError(429, 'RATE_LIMITED', messages.tooManyOtpRequests);
}

export function otpAttemptThrottledError(): ApiError {
  return new ApiError(429, 'RATE_LIMITED', messages.tooManyAttempts);
}

/** A refusal of the code itself (wrong, expired, used), as opposed to a network failure or a throttle. */
export function isRejectedCode(error: unknown): boolean {
  return error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429;
}
