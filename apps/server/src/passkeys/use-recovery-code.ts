import { attemptFailed, attemptSucceeded, beginAttempt, type AttemptDeps } from '../auth/attempt-guard';
import { recordSecondFactor } from '../auth/session-repository';
import { AppError } from '../lib/app-error';
import type { PasskeyConfig } from './passkey-config';
import { hashRecoveryCode } from './recovery-codes';
import { spendRecoveryCode, unusedRecoveryCodes } from './recovery-code-repository';
import type { PasskeyCaller } from './register-passkey';
import { isPendingSecondFactor } from './second-factor';

/**
 * Finishes a pending sign-in with a recovery code in place of the passkey (single use). Wrong codes count as
 * this client's failed attempts on the account (attempt-guard.ts: growing waits, then refused for the
 * client). The session passes its second factor but records no passkey use: moving money as an admin still
 * asks for a passkey, so the owner adds a new one.
 */
export async function useRecoveryCode(
  deps: AttemptDeps & { config: Pick<PasskeyConfig, 'secondFactor'> },
  caller: PasskeyCaller,
  input: { code: string; client: string },
): Promise<{ remaining: number }> {
  if (!isPendingSecondFactor(caller, deps.config)) throw AppError.of('BAD_REQUEST', 'invalidRequest');
  const attempt = await beginAttempt(deps, {
    identifier: `recovery:${caller.user.id}`,
    client: input.client,
  });
  const spent = await spendRecoveryCode(deps.db, {
    userId: caller.user.id,
    codeHash: hashRecoveryCode(input.code),
    now: attempt.at,
  });
  if (!spent) {
    await attemptFailed(deps, attempt);
    throw AppError.of('BAD_REQUEST', 'recoveryCodeInvalid');
  }
  await attemptSucceeded(deps, attempt);
  await recordSecondFactor(deps.db, {
    sessionId: caller.sessionId,
    now: attempt.at,
    secondFactor: true,
    passkey: false,
  });
  return { remaining: await unusedRecoveryCodes(deps.db, caller.user.id) };
}
