import type { StepUpPurpose } from '@hasta/contracts/palm-trust';
import type { PalmScan } from '@hasta/contracts/palm';
import { createIdentity, renderSample, type SyntheticIdentity } from '@hasta/palm/synthetic';
import type { FastifyInstance } from 'fastify';
import { findSession } from '../../src/auth/sessions';
import { bearer, lastCode } from './auth-helpers';
import { injectScan } from './device-helpers';

const SEED = 20261123;
const identities = new Map<number, SyntheticIdentity>();

/** Frames of synthetic palm `identity` (samples as given): what the scanner's demo mode sends. */
export function framesOf(identity: number, samples: number[]): Uint8Array[] {
  let palm = identities.get(identity);
  if (!palm) {
    palm = createIdentity(SEED, identity);
    identities.set(identity, palm);
  }
  return samples.map((sample) => renderSample(palm, sample, 'medium', 128));
}

export function scanOf(identity: number, samples: number[], source: PalmScan['source'] = 'demo'): PalmScan {
  return { frames: framesOf(identity, samples).map((f) => Buffer.from(f).toString('base64')), source };
}

/**
 * The owner's step-up for `purpose` as the app does it, unless this session has a live one: a code to their
 * own phone (else email), read from the dev outbox, then verified.
 */
export async function stepUp(
  app: FastifyInstance,
  token: string,
  purpose: StepUpPurpose = 'palm_enrol',
): Promise<void> {
  const db = app.database.db;
  const session = await findSession(db, token);
  if (!session) throw new Error('stepUp: no live session for this token');
  const live = await db
    .selectFrom('palm_step_ups')
    .select('id')
    .where('session_id', '=', session.sessionId)
    .where('purpose', '=', purpose)
    .where('expires_at', '>', new Date(Date.now() + 30_000))
    .executeTakeFirst();
  if (live) return;
  const sent = await app.inject({
    method: 'POST',
    url: '/Palm/step-up/send',
    payload: { purpose },
    headers: bearer(token),
  });
  if (sent.statusCode !== 200) throw new Error(`step-up send: ${sent.body}`);
  const otp = await lastCode(app.database, session.user.phone ?? session.user.email!);
  const verified = await app.inject({
    method: 'POST',
    url: '/Palm/step-up/verify',
    payload: { purpose, otp },
    headers: bearer(token),
  });
  if (verified.statusCode !== 200) throw new Error(`step-up verify: ${verified.body}`);
}

/**
 * The palms of one test file: `newIdentity()` gives each person a synthetic palm nobody else in the file
 * has (from `firstIdentity` on), and `freshScan(identity)` new captures of it every time, never the same
 * frames twice (the replay guard refuses those).
 */
export function palmSupply(firstIdentity: number) {
  let identity = firstIdentity;
  const nextSample = new Map<number, number>();
  return {
    newIdentity: (): number => (identity += 1),
    freshScan(of: number): PalmScan {
      const first = nextSample.get(of) ?? 0;
      nextSample.set(of, first + 3);
      return scanOf(of, [first, first + 1, first + 2]);
    },
  };
}

/**
 * Registers a hand of the signed-in person (`token`) the way the app does: every step the server asks of
 * the owner first (the step-up of their session), then POST /Palm/register. Answers the registration's
 * response. (An admin naming another user in `extra` gets the 202 of a request the owner approves.)
 */
export async function registerPalm(
  app: FastifyInstance,
  token: string,
  hand: 'left' | 'right',
  scan: PalmScan,
  extra: object = {},
) {
  await stepUp(app, token);
  return injectScan(app, {
    method: 'POST',
    url: '/Palm/register',
    payload: { which_hand: hand, consent: true, scan, ...extra },
    headers: bearer(token),
  });
}
