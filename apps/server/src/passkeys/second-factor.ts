import { PASSKEY_REAUTH_MS, type SecondFactorStep } from '@hasta/contracts/passkeys';
import type { Kysely } from 'kysely';
import type { Schema, UserRole } from '../db/schema';
import { AppError } from '../lib/app-error';
import type { PasskeyConfig } from './passkey-config';
import { countPasskeys } from './passkey-repository';

/** Who signs in with two factors (issue 23): admins and store owners. People keep one. */
const TWO_FACTOR_ROLES: ReadonlySet<UserRole> = new Set<UserRole>(['admin', 'merchant']);

/** The parts of a session the second factor is read from. */
export interface SessionFactors {
  user: { id: string; role: UserRole };
  secondFactorAt: Date | null;
  passkeyVerifiedAt: Date | null;
}

export function needsSecondFactor(role: UserRole, config: Pick<PasskeyConfig, 'secondFactor'>): boolean {
  return config.secondFactor === 'required' && TWO_FACTOR_ROLES.has(role);
}

/**
 * Whether this session has passed only its first factor: it may then do nothing but the passkey steps
 * (the auth plugin's requireUser refuses everything else with 403 secondFactorRequired).
 */
export function isPendingSecondFactor(
  session: SessionFactors,
  config: Pick<PasskeyConfig, 'secondFactor'>,
): boolean {
  return needsSecondFactor(session.user.role, config) && session.secondFactorAt === null;
}

/** The passkey step that finishes a pending session, or null when nothing is pending. */
export async function secondFactorStep(
  deps: { db: Kysely<Schema>; config: Pick<PasskeyConfig, 'secondFactor'> },
  session: SessionFactors,
): Promise<SecondFactorStep> {
  if (!isPendingSecondFactor(session, deps.config)) return null;
  return (await countPasskeys(deps.db, session.user.id)) === 0 ? 'passkey_registration' : 'passkey';
}

/**
 * Admin actions that move money (issue 23) need a passkey use in this session within the last 5 minutes:
 * else 403 passkeyReauthRequired, which the web app answers with the passkey ceremony and a retry.
 */
export function assertRecentPasskey(
  session: SessionFactors,
  config: Pick<PasskeyConfig, 'secondFactor'>,
  now: Date,
): void {
  if (!needsSecondFactor(session.user.role, config)) return;
  const last = session.passkeyVerifiedAt;
  if (last === null || now.getTime() - last.getTime() > PASSKEY_REAUTH_MS || last.getTime() > now.getTime())
    throw AppError.of('FORBIDDEN', 'passkeyReauthRequired');
}
