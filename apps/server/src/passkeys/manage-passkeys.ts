import type { Passkey, SecondFactorStep } from '@hasta/contracts/passkeys';
import { AppError } from '../lib/app-error';
import { assertStepUp } from '../palm/palm-step-up';
import type { PasskeyDeps } from './passkey-config';
import { countPasskeys, deletePasskey, passkeysOf } from './passkey-repository';
import { toPasskeyAnswer, type PasskeyCaller } from './register-passkey';
import { secondFactorStep } from './second-factor';

/** The caller's passkeys (Settings), and the passkey step their session still needs, if any. */
export async function listPasskeys(
  deps: PasskeyDeps,
  caller: PasskeyCaller,
): Promise<{ passkeys: Passkey[]; secondFactor: SecondFactorStep }> {
  const passkeys = await passkeysOf(deps.db, caller.user.id);
  return { passkeys: passkeys.map(toPasskeyAnswer), secondFactor: await secondFactorStep(deps, caller) };
}

/**
 * Removes one of the caller's passkeys: needs a live `passkey_manage` step-up (a code to the owner or another
 * passkey), and an admin or store owner keeps at least one.
 */
export async function removePasskey(
  deps: PasskeyDeps,
  caller: PasskeyCaller,
  input: { id: string },
): Promise<void> {
  await assertStepUp(
    deps.db,
    { userId: caller.user.id, sessionId: caller.sessionId, purpose: 'passkey_manage' },
    deps.now(),
  );
  const ownerMustKeepOne = caller.user.role === 'admin' || caller.user.role === 'merchant';
  const owned = await passkeysOf(deps.db, caller.user.id);
  if (!owned.some((passkey) => passkey.id === input.id)) throw AppError.of('NOT_FOUND', 'passkeyNotFound');
  if (ownerMustKeepOne && (await countPasskeys(deps.db, caller.user.id)) <= 1)
    throw AppError.of('CONFLICT', 'passkeyLastOneKept');
  if (!(await deletePasskey(deps.db, { userId: caller.user.id, id: input.id })))
    throw AppError.of('NOT_FOUND', 'passkeyNotFound');
}
