import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { AppError } from '../lib/app-error';
import type { Messenger } from '../messaging/messenger';
import { notifyOwner } from '../notices/notify-owner';
import { unfreezeNotice } from './palm-notices';
import { liftPalmPayFreeze, palmPayFrozenAt } from './palm-pay-status-repository';
import { assertStepUp } from './palm-step-up';

export interface PalmPayStatusDeps {
  db: Kysely<Schema>;
  messenger: Pick<Messenger, 'send'>;
}

/** Whether palm pay is paused for the user ("Not me"), and since when. */
export async function palmPayStatus(
  deps: Pick<PalmPayStatusDeps, 'db'>,
  userId: string,
): Promise<{ frozen: boolean; frozenAt: Date | null }> {
  const frozenAt = await palmPayFrozenAt(deps.db, userId);
  return { frozen: frozenAt !== undefined, frozenAt: frozenAt ?? null };
}

/**
 * The owner turns palm pay back on (issue 21): their session needs a live 'palm_unfreeze' step-up; the freeze
 * is lifted, recorded, and they are told.
 */
export async function unfreezePalmPay(
  deps: PalmPayStatusDeps,
  caller: { userId: string; sessionId: string },
  now = new Date(),
): Promise<void> {
  await assertStepUp(deps.db, { ...caller, purpose: 'palm_unfreeze' }, now);
  if (!(await liftPalmPayFreeze(deps.db, caller.userId, now)))
    throw AppError.of('CONFLICT', 'palmPayNotFrozen');
  await notifyOwner(deps, caller.userId, unfreezeNotice({ at: now }));
}
