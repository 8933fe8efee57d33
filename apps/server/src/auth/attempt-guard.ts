import { OTP_ATTEMPT_WINDOW_MS, OTP_MAX_FAILED_ATTEMPTS } from '@hasta/contracts/constants';
import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { AppError } from '../lib/app-error';
import type { Messenger } from '../messaging/messenger';
import { indiaTimeText, notifyOwner } from '../notices/notify-owner';
import {
  clearClientFailures,
  failureStats,
  insertFailure,
  insertOwnerNotice,
  ownerToldSince,
  withAttemptLock,
} from './attempt-repository';
import { findUserByIdentifier } from './user-repository';

/**
 * No lock-out by strangers (issue 23): failed password and code attempts count per (address, client), where
 * the client is its network address. One client may retry at once after its first failure (a typo), then
 * waits 1 s after its second, 2 s after its third, 4 s after its fourth..., and after 5 failures in 15
 * minutes it is refused with the spec's text until they age out (spec §5.12, per client). Another client, the owner's, is not touched by them. Across all clients an address
 * has a ceiling: past ACCOUNT_FAILURE_CEILING failures in 15 minutes every attempt on it waits a growing
 * delay (at most ACCOUNT_DELAY_CAP_MS) after the newest failure: it slows guessing from many addresses and
 * never locks the owner out. A refusal is a 429 with Retry-After, never a wait on the server, and is not
 * itself counted. The owner hears of repeated failures once per 15 minutes.
 */
export const FIRST_DELAY_MS = 1_000;
/** The longest wait one client's failures cause (the per-client lock at 5 comes first today: 4 s). */
export const CLIENT_DELAY_CAP_MS = 30_000;
/** Failures on one address in 15 minutes, from all clients, past which every attempt waits. */
export const ACCOUNT_FAILURE_CEILING = 20;
/** The longest wait the address's ceiling causes: the owner is slowed by at most this, never stopped. */
export const ACCOUNT_DELAY_CAP_MS = 60_000;
/** Failures on one address in 15 minutes, from all clients, after which its owner is told. */
export const OWNER_NOTICE_AFTER = 5;

/** The wait after `failures` failures: 1 s, 2 s, 4 s... up to `capMs`; none for zero. */
export function delayAfter(failures: number, capMs: number): number {
  if (failures <= 0) return 0;
  return Math.min(capMs, FIRST_DELAY_MS * 2 ** Math.min(failures - 1, 30));
}

/** A client's own wait: none after its first failure (one immediate retry for a typo), then 1 s, 2 s... */
export function clientDelayAfter(failures: number): number {
  return delayAfter(failures - 1, CLIENT_DELAY_CAP_MS);
}

export interface AttemptDeps {
  db: Kysely<Schema>;
  messenger: Pick<Messenger, 'send'>;
  /** The clock the delays are read on. */
  now: () => Date;
  /** Told when the owner's notice could not be sent (the attempt's answer does not change). */
  onNoticeFailed?: ((error: unknown) => void) | undefined;
}

/** An attempt allowed to go ahead, counted as failed until it is settled as a success. */
export interface Attempt {
  identifier: string;
  client: string;
  at: Date;
}

/**
 * Lets a client try a password or a code on an address now, or refuses (429 tooManyAttempts, Retry-After).
 * The attempt is counted as a failure at once, under the address's lock, so a burst of parallel guesses
 * cannot slip past the delays: a success clears it again (attemptSucceeded).
 */
export async function beginAttempt(
  deps: Pick<AttemptDeps, 'db' | 'now'>,
  input: { identifier: string; client: string },
): Promise<Attempt> {
  const at = deps.now();
  const since = new Date(at.getTime() - OTP_ATTEMPT_WINDOW_MS);
  await withAttemptLock(deps.db, input.identifier, async (trx) => {
    const mine = await failureStats(trx, { ...input, since });
    if (mine.count >= OTP_MAX_FAILED_ATTEMPTS && mine.oldest) {
      throw AppError.retryLater(
        'tooManyAttempts',
        mine.oldest.getTime() + OTP_ATTEMPT_WINDOW_MS - at.getTime(),
      );
    }
    if (mine.newest) {
      const wait = mine.newest.getTime() + clientDelayAfter(mine.count) - at.getTime();
      if (wait > 0) throw AppError.retryLater('tooManyAttempts', wait);
    }
    const all = await failureStats(trx, { identifier: input.identifier, since });
    if (all.count >= ACCOUNT_FAILURE_CEILING && all.newest) {
      const past = all.count - ACCOUNT_FAILURE_CEILING + 1;
      const wait = all.newest.getTime() + delayAfter(past, ACCOUNT_DELAY_CAP_MS) - at.getTime();
      if (wait > 0) throw AppError.retryLater('tooManyAttempts', wait);
    }
    await insertFailure(trx, { ...input, at });
  });
  return { ...input, at };
}

/** The password or code was right: the client's failures on the address are cleared, the others' stay. */
export async function attemptSucceeded(deps: Pick<AttemptDeps, 'db'>, attempt: Attempt): Promise<void> {
  await clearClientFailures(deps.db, attempt);
}

/**
 * The password or code was wrong (it stays counted). After OWNER_NOTICE_AFTER failures on the address in 15
 * minutes, its owner, if it has one, is told: once, until 15 minutes pass without a notice.
 */
export async function attemptFailed(deps: AttemptDeps, attempt: Attempt): Promise<void> {
  const since = new Date(attempt.at.getTime() - OTP_ATTEMPT_WINDOW_MS);
  const tell = await withAttemptLock(deps.db, `notice:${attempt.identifier}`, async (trx) => {
    const all = await failureStats(trx, { identifier: attempt.identifier, since });
    if (all.count < OWNER_NOTICE_AFTER) return undefined;
    if (await ownerToldSince(trx, { identifier: attempt.identifier, since })) return undefined;
    await insertOwnerNotice(trx, { identifier: attempt.identifier, at: attempt.at });
    return all.count;
  });
  if (tell === undefined) return;
  const owner = await findUserByIdentifier(deps.db, attempt.identifier);
  if (!owner) return;
  try {
    await notifyOwner(deps, owner.id, {
      subject: 'Failed sign-in attempts on your Hasta account',
      body:
        `Someone failed to sign in to your Hasta account ${tell} times in the last 15 minutes ` +
        `(the latest at ${indiaTimeText(attempt.at)}), with a wrong password or code. Your account is not ` +
        `locked: you can still sign in. If this was not you, choose a new password in Settings and never ` +
        `share your codes.`,
    });
  } catch (error) {
    deps.onNoticeFailed?.(error);
  }
}
