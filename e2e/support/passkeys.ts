import { createHash, createPrivateKey } from 'node:crypto';
import { mkdir, rmdir, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { messages } from '@hasta/contracts/messages';
import { expect } from '@playwright/test';
import type { APIRequestContext, CDPSession, Page } from '@playwright/test';

import { SoftwareAuthenticator } from '../../apps/server/test/support/software-authenticator';

/**
 * Passkeys in the browser tests (issue 23): admins and store owners finish every sign-in with one. API
 * clients play the owner's device with the server tests' software authenticator; pages use Chromium's
 * virtual authenticator, loaded with the same credential, so an account signed in both ways has one passkey.
 *
 * An account's device is made from its address (the same key in every worker, so the suite's one admin is
 * the same device everywhere), unless a page registered one itself: its key is then read back from the
 * virtual authenticator and used from then on in this worker.
 */

/** The relying party the e2e server runs with (WEBAUTHN_RP_ID's default). */
const RP_ID = 'localhost';

const registeredByPages = new Map<string, { credentialId: Uint8Array; pkcs8: Buffer }>();

/** The page origin the server expects in a ceremony: the suite's base URL (http://localhost:PORT). */
function originOf(_client: APIRequestContext | Page): string {
  return `http://localhost:${Number(process.env['E2E_PORT'] ?? 4310)}`;
}

/** The device of the account signed in with `contact`. */
export function deviceFor(contact: string, origin: string): SoftwareAuthenticator {
  const known = registeredByPages.get(contact);
  if (known)
    return new SoftwareAuthenticator(origin, {
      privateKey: createPrivateKey({ key: known.pkcs8, format: 'der', type: 'pkcs8' }),
      credentialId: known.credentialId,
      counter: 'clock',
    });
  return SoftwareAuthenticator.fromSeed(origin, contact);
}

/** How long a ceremony may wait for another worker's on the same account, and when a lock is left over. */
const DEVICE_LOCK_WAIT_MS = 180_000;
const DEVICE_LOCK_STALE_MS = 90_000;
const DEVICE_LOCK_POLL_MS = 25;

/**
 * One ceremony at a time per account, across the suite's worker processes. Copies of one device (the
 * suite's one admin, in every worker and page) count their signatures from the clock; the server refuses a
 * count that does not grow (a cloned authenticator), so two workers' assertions must reach it in the order
 * they were made. A lock left by a killed run is taken over once it is stale.
 */
export async function withDeviceLock<T>(contact: string, work: () => Promise<T>): Promise<T> {
  const name = createHash('sha256').update(contact).digest('hex').slice(0, 16);
  const lock = path.join(os.tmpdir(), `hasta-e2e-passkey-${process.env['E2E_PORT'] ?? 4310}-${name}`);
  const deadline = Date.now() + DEVICE_LOCK_WAIT_MS;
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const since = await stat(lock).then(
        (info) => Date.now() - info.mtimeMs,
        () => 0,
      );
      if (since > DEVICE_LOCK_STALE_MS) await rmdir(lock).catch(() => undefined);
      else if (Date.now() > deadline) throw new Error(`the passkey of ${contact} stayed busy`);
      else await new Promise((resolve) => setTimeout(resolve, DEVICE_LOCK_POLL_MS));
    }
  }
  try {
    return await work();
  } finally {
    await rmdir(lock).catch(() => undefined);
  }
}

async function okJson(
  response: Awaited<ReturnType<APIRequestContext['post']>>,
): Promise<Record<string, unknown>> {
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

/**
 * Finishes an API sign-in (its answer's `second_factor`) with the account's device: registers it at the
 * first sign-in, signs with it later. Another worker registering the same admin first is not a failure:
 * the session then signs with the device instead.
 */
export async function passSecondFactor(
  request: APIRequestContext,
  contact: string,
  step: 'passkey_registration' | 'passkey' | null | undefined,
): Promise<void> {
  if (step === null || step === undefined) return;
  await withDeviceLock(contact, async () => {
    const device = deviceFor(contact, originOf(request));
    if (step === 'passkey_registration') {
      // Another worker may have registered the shared admin's passkey since this sign-in began: the server
      // then answers 409 and the session signs with the device instead.
      const started = await request.post('/api/passkeys/registration/options', { data: {} });
      const { options } = started.status() === 409 ? { options: undefined } : await okJson(started);
      if (options !== undefined) {
        const verified = await request.post('/api/passkeys/registration/verify', {
          data: { response: device.register(options as never) },
        });
        if (verified.status() === 200) return;
      }
    }
    await assertByApi(request, contact, { purpose: 'sign_in' });
  });
}

/** A passkey check through the API for one purpose (sign_in, reauth, a step-up, a transfer). */
export async function confirmByApi(
  request: APIRequestContext,
  contact: string,
  body: Record<string, unknown>,
): Promise<void> {
  await withDeviceLock(contact, () => assertByApi(request, contact, body));
}

async function assertByApi(
  request: APIRequestContext,
  contact: string,
  body: Record<string, unknown>,
): Promise<void> {
  const device = deviceFor(contact, originOf(request));
  const { options } = await okJson(
    await request.post('/api/passkeys/authentication/options', { data: body }),
  );
  await okJson(
    await request.post('/api/passkeys/authentication/verify', {
      data: { response: device.assert(options as never) },
    }),
  );
}

/** Whether an answer asks for the admin's passkey again (403 passkeyReauthRequired). */
export async function asksForPasskeyAgain(
  response: Awaited<ReturnType<APIRequestContext['post']>>,
): Promise<boolean> {
  if (response.status() !== 403) return false;
  const body = (await response.json().catch(() => ({}))) as { message?: string };
  return body.message === messages.passkeyReauthRequired;
}

const virtualAuthenticators = new WeakMap<Page, { cdp: CDPSession; authenticatorId: string }>();

/** Chromium's virtual authenticator on this page (one per page): internal, user-verifying, resident keys. */
export async function virtualAuthenticator(
  page: Page,
): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const existing = virtualAuthenticators.get(page);
  if (existing) return existing;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
  const made = { cdp, authenticatorId };
  virtualAuthenticators.set(page, made);
  return made;
}

/** Loads the account's device into the page's virtual authenticator, so the page can sign with it. */
export async function loadDevice(page: Page, contact: string): Promise<void> {
  const { cdp, authenticatorId } = await virtualAuthenticator(page);
  const device = deviceFor(contact, originOf(page));
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  const credentialId = Buffer.from(device.credentialId).toString('base64');
  // Loaded again on every sign-in, so its count starts from the clock now, past every other copy's.
  if (credentials.some((credential) => credential.credentialId === credentialId))
    await cdp.send('WebAuthn.removeCredential', { authenticatorId, credentialId });
  await cdp.send('WebAuthn.addCredential', {
    authenticatorId,
    credential: {
      credentialId,
      isResidentCredential: false,
      rpId: RP_ID,
      privateKey: device.pkcs8Base64,
      // Counts on from the clock, as the API clients' copies of this device do.
      signCount: SoftwareAuthenticator.clockCount(),
    },
  });
}

/** Remembers the passkey a page just registered for `contact` (its key, read from the virtual authenticator). */
export async function rememberPageDevice(page: Page, contact: string): Promise<void> {
  const { cdp, authenticatorId } = await virtualAuthenticator(page);
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  // Every credential but the ones this worker knows already (the address's own device included).
  const known = new Set(
    [
      ...registeredByPages.values(),
      { credentialId: SoftwareAuthenticator.fromSeed(originOf(page), contact).credentialId },
    ].map((device) => Buffer.from(device.credentialId).toString('base64')),
  );
  const made = credentials.filter((credential) => !known.has(credential.credentialId)).at(-1);
  if (!made) throw new Error(`no passkey made for ${contact} in the virtual authenticator`);
  registeredByPages.set(contact, {
    credentialId: new Uint8Array(Buffer.from(made.credentialId, 'base64')),
    pkcs8: Buffer.from(made.privateKey, 'base64'),
  });
}

/**
 * The passkey step of a sign-in on the login page, if it shows: creates the passkey (and confirms the
 * recovery codes were saved) at the first sign-in, uses it later. Answers which it was, or null.
 */
export async function finishPasskeyStepOnPage(
  page: Page,
  contact: string,
): Promise<'registered' | 'used' | null> {
  const create = page.getByRole('heading', { name: 'Create your passkey' });
  const use = page.getByRole('heading', { name: 'Use your passkey' });
  const settled = page
    .getByRole('main')
    .getByRole('alert')
    .or(page.getByRole('heading', { name: 'Choose a new password' }))
    .or(page.getByRole('heading', { name: 'Welcome: choose your password' }));
  // Whichever comes first; the others are left to lapse quietly.
  const quietly = (waiting: Promise<unknown>) => waiting.catch(() => undefined);
  await Promise.race([
    quietly(create.waitFor()),
    quietly(use.waitFor()),
    quietly(settled.first().waitFor()),
    quietly(page.waitForURL((url) => url.pathname !== '/login')),
  ]);
  if (await create.isVisible()) {
    await page.getByRole('button', { name: 'Create passkey' }).click();
    await expect(page.getByRole('heading', { name: 'Save your recovery codes' })).toBeVisible();
    await page.getByLabel('I have saved them').check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await rememberPageDevice(page, contact);
    return 'registered';
  }
  if (await use.isVisible()) {
    await page.getByRole('button', { name: 'Use passkey' }).click();
    await expect(use).toHaveCount(0);
    return 'used';
  }
  return null;
}
