import type { StepUpPurpose } from '@hasta/contracts/palm-trust';
import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';

/** How the owner proved it is them: a one-time code, or a passkey (issue 23, migration 030). */
export type StepUpMethod = 'otp' | 'passkey';

/** Records a verified step-up of one session for one purpose, counting until `expiresAt`. */
export async function recordStepUp(
  db: Kysely<Schema>,
  stepUp: {
    sessionId: string;
    userId: string;
    purpose: StepUpPurpose;
    method: StepUpMethod;
    verifiedAt: Date;
    expiresAt: Date;
  },
): Promise<void> {
  await db
    .insertInto('palm_step_ups')
    .values({
      session_id: stepUp.sessionId,
      user_id: stepUp.userId,
      purpose: stepUp.purpose,
      method: stepUp.method,
      verified_at: stepUp.verifiedAt,
      expires_at: stepUp.expiresAt,
    })
    .execute();
}

/** Until when this session of this user has a step-up for `purpose` that counts at `now`, if it has one. */
export async function liveStepUpUntil(
  db: Kysely<Schema>,
  input: { sessionId: string; userId: string; purpose: StepUpPurpose; now: Date },
): Promise<Date | undefined> {
  const row = await db
    .selectFrom('palm_step_ups')
    .select('expires_at')
    .where('session_id', '=', input.sessionId)
    .where('user_id', '=', input.userId)
    .where('purpose', '=', input.purpose)
    .where('verified_at', '<=', input.now)
    .where('expires_at', '>', input.now)
    .orderBy('expires_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? new Date(row.expires_at) : undefined;
}
