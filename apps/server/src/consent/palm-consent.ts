import type { ConsentResponse } from '@hasta/contracts/palm';
import { AppError } from '../lib/app-error';
import { notifyOwner, type NoticeDeps } from '../notices/notify-owner';
import { erasureNotice, withdrawalNotice } from '../palm/palm-notices';
import type { PalmService } from '../palm/palm-service';
import type { TransparencyLog } from '../tlog/transparency-log';
import type { PalmConsentRepository } from './palm-consent-repository';

/**
 * A person's palm consent (the Consent tab): withdrawing stops palm payments at once, restoring gives consent
 * again for the registered hands, erasing deletes the templates and crypto-shreds the log records.
 */
export interface PalmConsentDeps {
  consents: PalmConsentRepository;
  palm: Pick<PalmService, 'withdraw' | 'restore' | 'erase'>;
  transparencyLog: Pick<TransparencyLog, 'flush' | 'destroyDataKey'>;
  /** The owner is told of every withdrawal and erasure (issue 21). */
  notices: NoticeDeps;
}

/** Status, registered hands and consent events, newest first (each with a receipt once sequenced). */
export async function viewPalmConsent(
  deps: Pick<PalmConsentDeps, 'consents'>,
  userId: string,
): Promise<ConsentResponse> {
  const consent = await deps.consents.consentOf(userId);
  return {
    status: consent.hands.length === 0 ? 'none' : consent.liveConsents > 0 ? 'active' : 'withdrawn',
    hands: consent.hands.map((hand) => ({
      hand: hand.hand,
      palm_hash: hand.palmHash,
      registered_at: hand.registeredAt.toISOString(),
    })),
    events: consent.events.map((event) => ({
      id: event.id,
      type: event.type,
      hand: event.hand,
      created_at: event.createdAt.toISOString(),
    })),
  };
}

/**
 * Withdraws every live consent: the person's palms stop paying at once (the templates stay until erased).
 * The person is told.
 */
export async function withdrawPalmConsent(
  deps: Pick<PalmConsentDeps, 'palm' | 'notices'>,
  userId: string,
  now = new Date(),
): Promise<void> {
  const hands = await deps.palm.withdraw(userId);
  if (hands.length === 0) throw AppError.of('CONFLICT', 'noPalmToWithdraw');
  await notifyOwner(deps.notices, userId, withdrawalNotice({ hands, at: now }));
}

/** Gives consent again for each registered hand without a live one. */
export async function restorePalmConsent(deps: Pick<PalmConsentDeps, 'palm'>, userId: string): Promise<void> {
  if (!(await deps.palm.restore(userId))) throw AppError.of('CONFLICT', 'noPalmToRestore');
}

/**
 * Erases the person's palm data: templates deleted, consent withdrawn, their log records crypto-shredded.
 * The person is told.
 */
export async function erasePalmData(
  deps: Pick<PalmConsentDeps, 'palm' | 'transparencyLog' | 'notices'>,
  userId: string,
  now = new Date(),
): Promise<void> {
  const hands = await deps.palm.erase(userId);
  if (hands.length === 0) throw AppError.of('CONFLICT', 'noPalmToErase');
  // Waiting events are sealed first (under the key that is about to go), then the key is destroyed.
  await deps.transparencyLog.flush();
  await deps.transparencyLog.destroyDataKey(userId);
  await notifyOwner(deps.notices, userId, erasureNotice({ hands, at: now }));
}
