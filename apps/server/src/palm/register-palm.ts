import type { Hand, PalmScan } from '@hasta/contracts/palm';
import type { PalmConsentRepository } from '../consent/palm-consent-repository';
import { isUniqueViolation } from '../db/errors';
import { AppError } from '../lib/app-error';
import type { PalmService } from './palm-service';

export interface PalmRegistrationDeps {
  consents: Pick<PalmConsentRepository, 'userExists' | 'registeredHands'>;
  palm: Pick<PalmService, 'enrol'>;
}

async function existingUser(deps: Pick<PalmRegistrationDeps, 'consents'>, userId: string): Promise<void> {
  if (!(await deps.consents.userExists(userId))) throw AppError.of('NOT_FOUND', 'userNotFound');
}

/**
 * Registers one hand of a user, with their consent: the scan becomes a protected template (PalmService.enrol).
 * Answers the template's palm hash.
 */
export async function registerPalm(
  deps: PalmRegistrationDeps,
  input: { userId: string; hand: Hand; scan: PalmScan },
): Promise<{ palmHash: string }> {
  await existingUser(deps, input.userId);
  try {
    const { palmHash } = await deps.palm.enrol(input.userId, input.hand, input.scan);
    return { palmHash };
  } catch (error) {
    // Two registrations of the same hand at once: the unique (user, hand) lets one through.
    if (isUniqueViolation(error)) throw AppError.of('CONFLICT', 'handAlreadyRegistered');
    throw error;
  }
}

/** Which hands of a user are registered. */
export async function palmRegistrationState(
  deps: Pick<PalmRegistrationDeps, 'consents'>,
  userId: string,
): Promise<{ left: boolean; right: boolean }> {
  await existingUser(deps, userId);
  return deps.consents.registeredHands(userId);
}
