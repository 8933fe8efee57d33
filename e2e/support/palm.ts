import { randomInt } from 'node:crypto';

import { PALM_ROI_SIZE, PALM_SCAN_FRAMES } from '@hasta/contracts/palm';
import type { Hand } from '@hasta/contracts/palm';
import { createIdentity, renderSample } from '@hasta/palm/synthetic';
import type { APIRequestContext } from '@playwright/test';
import { expect } from '@playwright/test';

import type { Account } from './accounts';
import { postSignedScan, thisBrowserDeviceByApi } from './devices';

/** A palm of the synthetic population: (seed, identity). */
export interface Palm {
  seed: number;
  identity: number;
}

/** A synthetic population of a test's own, so its palms are nobody else's in the shared database. */
export const newPalmSeed = (): number => randomInt(1, 2 ** 31);

/** Distinct captures of `palm` (samples `first`, `first + 1`, ...), as a camera would send them. */
export function palmFrames(palm: Palm, first = 100): string[] {
  const identity = createIdentity(palm.seed, palm.identity);
  return Array.from({ length: PALM_SCAN_FRAMES }, (_, sample) =>
    Buffer.from(renderSample(identity, first + sample, 'medium', PALM_ROI_SIZE)).toString('base64'),
  );
}

/**
 * Registers `hand` of the session's user (`account`) with `palm` through the API, as the page does: the
 * owner's step-up first, then the registration (the person agreed to the notice).
 */
export async function registerPalmByApi(
  session: APIRequestContext,
  account: Account,
  palm: Palm,
  hand: Hand,
): Promise<void> {
  // The person's own browser becomes a device with the same step-up (issue 22), and signs the scan.
  const device = await thisBrowserDeviceByApi(session, account.contact);
  const response = await postSignedScan(session, device, '/Palm/register', {
    which_hand: hand,
    consent: true,
    scan: { frames: palmFrames(palm), source: 'camera' },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/** The account's balance as its own dashboard shows it. */
export async function dashboardBalance(session: APIRequestContext, account: Account): Promise<string> {
  const response = await session.get(`/api/dashboard?userId=${account.user.id}`);
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { user: { balance: string } }).user.balance;
}
