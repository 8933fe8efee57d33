import type { AuthDeps } from '../auth/auth-deps';
import { signIn } from '../auth/sign-in';
import type { SignedIn } from '../auth/start-session';
import { AppError } from '../lib/app-error';
import { ownContactOf } from '../notices/notify-owner';
import { grantStepUp } from '../palm/palm-step-up';
import { authenticateDevice } from './device-credential';

/**
 * A sign-in (POST /api/auth/login), and on a paired kiosk one step less: a person who signs in there with a
 * code to their own phone has just proved, in person, what the palm_enrol step-up asks for (a code to the
 * account's own phone, for this session). So that session starts with the step-up, as if its code had been
 * sent, and the person is not sent a second code to register a palm. A password sign-in, a code to another
 * address than the step-up's own (an email when the account has a phone), or a device that is not a live
 * kiosk (none, a terminal, a person's own browser, a revoked or unknown token), is an ordinary sign-in,
 * whose step-up still needs its own code.
 */
export async function signInOnDevice(
  deps: Pick<AuthDeps, 'db' | 'secret' | 'messenger' | 'now' | 'onNoticeFailed'>,
  input: Parameters<typeof signIn>[1] & { deviceToken: string | undefined },
): Promise<SignedIn> {
  const { deviceToken, ...credentials } = input;
  const session = await signIn(deps, credentials);
  if (credentials.otp === undefined || deviceToken === undefined) return session;
  const device = await authenticateDevice(deps, deviceToken).catch((cause: unknown) => {
    if (cause instanceof AppError) return undefined;
    throw cause;
  });
  if (device?.kind !== 'kiosk') return session;
  // Only a code to where the step-up's own code would go (the phone, else the email): a code to an account's
  // email when it has a phone proves less than the step-up asks for.
  if ((await ownContactOf(deps.db, session.user.id)).address !== credentials.identifier) return session;
  await grantStepUp(
    deps.db,
    { sessionId: session.sessionId, userId: session.user.id, purpose: 'palm_enrol', method: 'otp' },
    deps.now(),
  );
  return session;
}
