import { createHash } from 'node:crypto';

import { PALM_ROI_SIZE, PALM_SCAN_FRAMES } from '@hasta/contracts/palm';
import type { Hand } from '@hasta/contracts/palm';
import { createIdentity, renderSample } from '@hasta/palm/synthetic';
import type { APIRequestContext, APIResponse } from '@playwright/test';
import { expect, test } from '@playwright/test';

import type { Account } from './accounts';
import { thisBrowserTestDevice } from './devices';
import type { TestDevice } from './devices';
import { stepUpByApi } from './step-up';

/** A palm of the synthetic population: (seed, identity). */
export interface Palm {
  seed: number;
  identity: number;
}

/** How many seeds each test has drawn so far (by test id). */
const seedsDrawn = new Map<string, number>();

/**
 * A synthetic population of a test's own, so its palms are nobody else's in the shared database. The seed
 * comes from the test's title and how many it has drawn, so every run uses the same palms: the engine's
 * decisions are at a false-match rate of 1e-3 per search by design, and palms drawn afresh each run would
 * make a test's outcome a matter of luck (a new palm taken for one registered earlier, about once in a
 * thousand registrations). The same palms run after run either pass or fail, every time.
 */
export function newPalmSeed(): number {
  const info = test.info();
  const drawn = seedsDrawn.get(info.testId) ?? 0;
  seedsDrawn.set(info.testId, drawn + 1);
  const digest = createHash('sha256')
    .update(`${info.titlePath.join(' › ')} #${drawn} retry ${info.retry} repeat ${info.repeatEachIndex}`)
    .digest();
  return (digest.readUInt32BE(0) % (2 ** 31 - 1)) + 1;
}

/** Distinct captures of `palm` (samples `first`, `first + 1`, ...), as a camera would send them. */
export function palmFrames(palm: Palm, first = 100): string[] {
  const identity = createIdentity(palm.seed, palm.identity);
  return Array.from({ length: PALM_SCAN_FRAMES }, (_, sample) =>
    Buffer.from(renderSample(identity, first + sample, 'medium', PALM_ROI_SIZE)).toString('base64'),
  );
}

/** Each API session's own device (issue 22), made once: what the session's browser would be. */
const sessionDevices = new WeakMap<APIRequestContext, TestDevice>();

/**
 * The session's browser as a device of its user (issue 22), made on first use as the pages do: the person's
 * step-up ('palm_enrol'), then POST /api/devices/this-browser (`personal`, or `terminal` for a store owner's
 * Accept Palm).
 */
export async function sessionDevice(
  session: APIRequestContext,
  contact: string,
  kind: 'personal' | 'terminal' = 'personal',
  /** The session already has a live step-up (it just made one). */
  steppedUp = false,
): Promise<TestDevice> {
  const known = sessionDevices.get(session);
  if (known !== undefined) return known;
  if (!steppedUp) await stepUpByApi(session, contact);
  const device = await thisBrowserTestDevice(session, kind);
  sessionDevices.set(session, device);
  return device;
}

/**
 * Registers `hand` of the session's user (`account`) with `palm` through the API, as the page does: the
 * owner's step-up first, then the registration (the person agreed to the notice), signed by the session's
 * device.
 */
export async function registerPalmByApi(
  session: APIRequestContext,
  account: Account,
  palm: Palm,
  hand: Hand,
): Promise<void> {
  await stepUpByApi(session, account.contact);
  const device = await sessionDevice(session, account.contact, 'personal', true);
  const frames = palmFrames(palm);
  const signed = await device.sign(session, { purpose: 'enrol' }, frames);
  const response = await session.post('/Palm/register', {
    headers: signed.headers,
    data: { which_hand: hand, consent: true, scan: { frames, source: 'camera' }, ...signed.fields },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/**
 * A palm payment the session's user receives (POST /Palm/authenticate, as /receive makes it), signed by the
 * receiver's own device: the answer, for the caller's assertions.
 */
export async function receiveByPalmByApi(
  session: APIRequestContext,
  receiver: { contact: string },
  body: { amount: number; scan: { frames: string[]; source: 'camera' } } & Record<string, unknown>,
  idempotencyKey: string = crypto.randomUUID(),
): Promise<APIResponse> {
  const device = await sessionDevice(session, receiver.contact);
  const signed = await device.sign(session, { purpose: 'receive', amount: body.amount }, body.scan.frames);
  return session.post('/Palm/authenticate', {
    headers: { ...signed.headers, 'Idempotency-Key': idempotencyKey },
    data: { ...body, ...signed.fields },
  });
}

/**
 * A palm payment a store takes (POST /api/transaction, as Accept Palm makes it), signed by the owner's browser
 * as a terminal of the store: the answer, for the caller's assertions.
 */
export async function storePalmPaymentByApi(
  session: APIRequestContext,
  owner: { contact: string },
  body: { amount: number; scan: { frames: string[]; source: 'camera' } },
  idempotencyKey: string = crypto.randomUUID(),
): Promise<APIResponse> {
  const device = await sessionDevice(session, owner.contact, 'terminal');
  const signed = await device.sign(session, { purpose: 'pay', amount: body.amount }, body.scan.frames);
  return session.post('/api/transaction', {
    headers: { ...signed.headers, 'Idempotency-Key': idempotencyKey },
    data: { ...body, ...signed.fields },
  });
}

/** The account's balance as its own dashboard shows it. */
export async function dashboardBalance(session: APIRequestContext, account: Account): Promise<string> {
  const response = await session.get(`/api/dashboard?userId=${account.user.id}`);
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { user: { balance: string } }).user.balance;
}
