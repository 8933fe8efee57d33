import type { PalmScan } from '@hasta/contracts/palm';
import { createIdentity, renderSample, type SyntheticIdentity } from '@hasta/palm/synthetic';
import type { FastifyInstance } from 'fastify';
import { bearer } from './auth-helpers';

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
 * Registers a hand of the signed-in person (`token`) the way the app does: every step the server asks of
 * the owner first, then POST /Palm/register. Answers the registration's response.
 */
export async function registerPalm(
  app: FastifyInstance,
  token: string,
  hand: 'left' | 'right',
  scan: PalmScan,
  extra: object = {},
) {
  return app.inject({
    method: 'POST',
    url: '/Palm/register',
    payload: { which_hand: hand, consent: true, scan, ...extra },
    headers: bearer(token),
  });
}
