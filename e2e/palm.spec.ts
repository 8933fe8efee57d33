import { messages } from '@hasta/contracts/messages';
import { PALM_CONSENT_NOTICE, PALM_SCAN_FRAMES } from '@hasta/contracts/palm';
import type { Hand } from '@hasta/contracts/palm';
import type { Browser, BrowserContext, Page, PlaywrightWorkerArgs } from '@playwright/test';

import { ADMIN_EMAIL, ADMIN_PASSWORD, expect, registerAccount, signIn, test } from './support/accounts';
import type { Account } from './support/accounts';
import { openRowActions, openTab } from './support/admin';
import { axeViolations } from './support/axe';
import { launchWithPalmCamera } from './support/camera';
import { createMerchant } from './support/merchant';
import { dashboardBalance, newPalmSeed, registerPalmByApi } from './support/palm';
import { extractCode, latestMessageId, nextMessage, waitForMessage } from './support/outbox';
import { confirmItsYou, stepUpByApi } from './support/step-up';
import { adminSession, apiSession, giveValue, inr } from './support/wallet';

/**
 * A palm payment's payer as its receiver sees them (issue 21): their name's initial and a masked address
 * ("U. u•••@e•••", "U. ••••3210"), never the email or phone.
 */
function seenByReceiver(account: Account): string {
  const { contact } = account;
  const at = contact.indexOf('@');
  const address = at < 0 ? `••••${contact.slice(-4)}` : `${contact[0]}•••@${contact[at + 1]}•••`;
  return `${account.user.username[0]!.toUpperCase()}. ${address}`;
}

/**
 * Palm registration and palm payments in the browser, through Chromium's fake camera playing a film of a
 * synthetic palm (support/palm-video.ts): the page finds the palm in its guide box, cuts the frames and the
 * server registers or recognises it. Every test draws its own population seed, so its palms are nobody
 * else's in the shared database.
 */

/**
 * A camera scan: the camera starts, three good looks are taken, and the server answers. About 3 s on an idle
 * machine; the bound is for a busy one (software rendering and the scanner's looks share the cores).
 */
const SCAN_TIMEOUT_MS = 45_000;

/** A page signed in as `credentials` in a browser context of its own (of a browser with a palm camera). */
/** The account's registered hands as the server reports them to the account itself. */
async function expectHandsOnServer(
  playwright: PlaywrightWorkerArgs['playwright'],
  baseURL: string | undefined,
  account: Account,
  hands: { left: boolean; right: boolean },
): Promise<void> {
  const session = await apiSession(playwright, baseURL, account);
  const state = await session.post('/Palm/user/palm-registration-state', { data: {} });
  expect(await state.json()).toEqual({
    left_hand_registered: hands.left,
    right_hand_registered: hands.right,
  });
  await session.dispose();
}

async function signedInPage(
  browser: Browser,
  baseURL: string | undefined,
  credentials: { contact: string; channel: 'email' | 'phone'; password: string },
): Promise<Page> {
  const context = await browser.newContext(baseURL === undefined ? {} : { baseURL });
  const page = await context.newPage();
  await signIn(page, credentials);
  return page;
}

type SessionState = Awaited<ReturnType<BrowserContext['storageState']>>;

/**
 * A page of `browser` in the same signed-in session as `state` (from another browser's context): a session
 * that confirmed it is its owner keeps that for 5 minutes, and a new code could not be sent within a minute.
 */
async function sameSessionPage(browser: Browser, baseURL: string | undefined, state: SessionState) {
  const context = await browser.newContext({
    ...(baseURL === undefined ? {} : { baseURL }),
    storageState: state,
  });
  return context.newPage();
}

const adminCredentials = { contact: ADMIN_EMAIL, channel: 'email', password: ADMIN_PASSWORD } as const;

const main = (page: Page) => page.getByRole('main');

/** The §2.12 state block: status text and progress. */
async function expectRegistrationState(page: Page, status: string, progress: 0 | 50 | 100): Promise<void> {
  await expect(main(page).getByText(status, { exact: true })).toBeVisible();
  await expect(page.getByTestId('palm-progress')).toHaveText(`${progress}%`);
  await expect(page.getByRole('progressbar', { name: 'Registration progress' })).toHaveAttribute(
    'aria-valuenow',
    String(progress),
  );
}

/** Chooses a hand, agrees to the notice and lets the camera scan; returns when the success panel shows. */
async function registerWithCamera(page: Page, hand: Hand): Promise<void> {
  const title = hand === 'left' ? 'Left' : 'Right';
  await page.getByRole('button', { name: `Register ${title} Hand` }).click();
  await expect(
    page.getByRole('heading', { name: `Registering your ${hand.toUpperCase()} hand` }),
  ).toBeVisible();
  await expect(page.getByText(`Place your ${hand} hand on the scanner`)).toBeVisible();
  await agreeAndScan(page, hand);
}

/** Agrees to the notice: the scanner opens (and scans). */
async function agreeToScan(page: Page): Promise<void> {
  await expect(page.getByText(PALM_CONSENT_NOTICE)).toBeVisible();
  // No scanner until the person agrees.
  await expect(page.getByText(messages.palmConsentRequired)).toBeVisible();
  await expect(page.getByLabel('Camera preview with the palm guide box')).toHaveCount(0);
  await page.getByRole('checkbox', { name: 'I agree' }).check();
  await expect(page.getByLabel('Camera preview with the palm guide box')).toBeVisible();
}

async function agreeAndScan(page: Page, hand: Hand): Promise<void> {
  await agreeToScan(page);
  await expect(page.getByText('Registration Complete!')).toBeVisible({ timeout: SCAN_TIMEOUT_MS });
  await expect(
    page.getByText(`${hand === 'left' ? 'Left' : 'Right'} hand has been registered successfully.`),
  ).toBeVisible();
}

test.describe('Palm registration through the camera (/palm-register)', () => {
  test('a user registers the left then the right hand: status texts, progress 0/50/100 %, the consent notice, redirects', async ({
    playwright,
    baseURL,
    account,
  }) => {
    test.setTimeout(300_000);
    const seed = newPalmSeed();
    let sessionState: SessionState | undefined;

    const left = await launchWithPalmCamera(playwright, { seed, identity: 0 }, 'left-palm');
    try {
      const page = await signedInPage(left, baseURL, account);
      await page.goto('/user-dashboard');
      await expect(page.getByRole('link', { name: 'Register Palm' })).toBeVisible();
      await page.getByRole('link', { name: 'Register Palm' }).click();
      await expect(page).toHaveURL('/palm-register');
      await expect(page.getByRole('heading', { level: 1, name: 'Palm Registration' })).toBeVisible();
      await expectRegistrationState(page, 'Choose which hand(s) you want to register', 0);
      // No hand can be chosen before the owner confirms it is them with the code sent to them.
      await expect(page.getByRole('button', { name: 'Register Left Hand' })).toHaveCount(0);
      expect(await axeViolations(page), '/palm-register, confirm it is you').toEqual([]);
      await confirmItsYou(page, account.contact);
      await expect(page.getByRole('button', { name: 'Register Left Hand' })).toBeEnabled();
      await expect(page.getByRole('button', { name: 'Register Right Hand' })).toBeEnabled();
      await expect(page.getByRole('link', { name: /^Continue to/ })).toHaveCount(0);
      expect(await axeViolations(page), '/palm-register, choosing').toEqual([]);

      // Cancel leaves the scan step; choosing again shows the notice, not yet agreed to.
      await page.getByRole('button', { name: 'Register Left Hand' }).click();
      expect(await axeViolations(page), '/palm-register, consent notice').toEqual([]);
      await page.getByRole('button', { name: 'Cancel' }).click();
      await expect(page.getByRole('button', { name: 'Register Left Hand' })).toBeVisible();

      await registerWithCamera(page, 'left');
      await expect(page.getByText('Redirecting to dashboard...')).toBeVisible();
      // The success agrees with the 50 % bar and the status text: one of two hands, the other possible now.
      await expect(page.getByTestId('palm-registered-count')).toHaveText(
        '1 of 2 hands registered. You can register your right hand now, or later from your dashboard.',
      );
      await expect(page.getByRole('button', { name: 'Register my right hand now' })).toBeVisible();
      await expectRegistrationState(
        page,
        'Left hand registered ✓ - You can register right hand or continue',
        50,
      );
      expect(await axeViolations(page), '/palm-register, registered').toEqual([]);
      // After 5 s: the dashboard, which now says REGISTERED and lists the registration.
      await expect(page).toHaveURL('/user-dashboard');
      await expect(page.getByRole('link', { name: 'REGISTERED' })).toBeVisible();
      await expect(page.getByText('Palm Registered').first()).toBeVisible();
      await expect(page.getByRole('region', { name: 'Profile' })).not.toContainText('N/A');
      await expect(page.getByTestId('palm-hands')).toHaveText('Left hand registered');

      // The same palm, shown for another account, is refused as any failed registration: the error panel and
      // Try Again.
      sessionState = await page.context().storageState();
      const otherRequest = await playwright.request.newContext(baseURL === undefined ? {} : { baseURL });
      const other = await registerAccount(otherRequest);
      await otherRequest.dispose();
      const otherPage = await signedInPage(left, baseURL, other);
      await otherPage.goto('/palm-register');
      await confirmItsYou(otherPage, other.contact);
      await otherPage.getByRole('button', { name: 'Register Left Hand' }).click();
      await otherPage.getByRole('checkbox', { name: 'I agree' }).check();
      const failed = otherPage.getByRole('region', { name: 'Registration failed' });
      await expect(failed.getByRole('alert')).toHaveText(messages.palmRegistrationRefused, {
        timeout: SCAN_TIMEOUT_MS,
      });
      expect(await axeViolations(otherPage), '/palm-register, error panel').toEqual([]);
      await failed.getByRole('button', { name: 'Try Again' }).click();
      await expect(otherPage.getByRole('heading', { name: 'Registering your LEFT hand' })).toBeVisible();
      await expect(otherPage.getByLabel('Camera preview with the palm guide box')).toBeVisible();
      await expect(failed.getByRole('alert')).toHaveText(messages.palmRegistrationRefused, {
        timeout: SCAN_TIMEOUT_MS,
      });
      await expectRegistrationState(otherPage, 'Choose which hand(s) you want to register', 0);
      await otherPage.context().close();
    } finally {
      await left.close();
    }

    const right = await launchWithPalmCamera(playwright, { seed, identity: 1 }, 'right-palm');
    try {
      // The same session in the browser with the right palm's camera: it confirmed minutes ago.
      const page = await sameSessionPage(right, baseURL, sessionState!);
      await page.goto('/palm-register');
      await expectRegistrationState(
        page,
        'Left hand registered ✓ - You can register right hand or continue',
        50,
      );
      await expect(page.getByRole('button', { name: 'Left Hand ✓ Registered' })).toBeDisabled();
      await expect(page.getByRole('link', { name: 'Continue to Dashboard' })).toHaveAttribute(
        'href',
        '/user-dashboard',
      );
      await registerWithCamera(page, 'right');
      await expectRegistrationState(page, 'Both hands registered ✓', 100);
      await expect(page.getByTestId('palm-registered-count')).toHaveText('2 of 2 hands registered.');
      await expect(page.getByRole('button', { name: /^Register my .* hand now$/ })).toHaveCount(0);

      await page.goto('/palm-register');
      await expectRegistrationState(page, 'Both hands registered ✓', 100);
      const already = page.getByRole('button', { name: 'Already Registered' });
      await expect(already).toHaveCount(2);
      await expect(already.first()).toBeDisabled();
      await expect(already.last()).toBeDisabled();
      await expect(page.getByText('Both hands are already registered.')).toBeVisible();
      await expect(page.getByRole('link', { name: 'Return to Dashboard' })).toBeVisible();
      expect(await axeViolations(page), '/palm-register, both hands').toEqual([]);
    } finally {
      await right.close();
    }

    // The server says the same.
    await expectHandsOnServer(playwright, baseURL, account, { left: true, right: true });
  });

  test('an admin registers a user’s palm from the Users tab (admin mode); the user approves it with their code on their own session', async ({
    browser,
    playwright,
    baseURL,
    account,
  }) => {
    test.setTimeout(240_000);
    const seed = newPalmSeed();
    const camera = await launchWithPalmCamera(playwright, { seed, identity: 0 }, 'admin-left-palm');
    try {
      const page = await signedInPage(camera, baseURL, adminCredentials);
      // The admin's browser signs the scan as the admin's own device, made after the admin's step-up (issue 22).
      await stepUpByApi(page.request, adminCredentials.contact);
      await page.goto('/admin');
      const users = await openTab(page, 'Users');
      await users.getByLabel('Search users').fill(account.contact);
      await users.getByRole('button', { name: 'Search', exact: true }).click();
      const row = users.getByRole('row').filter({ hasText: account.contact });
      await expect(row.getByRole('cell').nth(7)).toHaveText('NO');
      await openRowActions(row);
      await row.getByRole('link', { name: /^Register Left Palm/ }).click();

      await expect(page).toHaveURL(
        `/palm-register?${new URLSearchParams({
          user_id: account.user.id,
          user_email: account.contact,
          admin_mode: 'true',
          hand: 'left',
        })}`,
      );
      await expect(page.getByText(`Admin mode: registering a palm for ${account.contact}.`)).toBeVisible();
      await expectRegistrationState(page, 'Choose which hand(s) you want to register', 0);
      // The link chose the hand: the scan step is open at once.
      await expect(page.getByRole('heading', { name: 'Registering your LEFT hand' })).toBeVisible();
      expect(await axeViolations(page), '/palm-register in admin mode').toEqual([]);
      const before = await latestMessageId(page.request, account.contact);
      await agreeToScan(page);
      // Nothing is registered yet: the owner's code went to them, and the page waits for their approval.
      const waiting = page.getByRole('region', { name: 'Waiting for the owner' });
      await expect(waiting.getByText('Waiting for the owner’s approval')).toBeVisible({
        timeout: SCAN_TIMEOUT_MS,
      });
      await expect(waiting).toContainText(messages.palmEnrolmentApprovalSent);
      await expect(waiting).toContainText(`Code sent to ${account.contact.slice(0, 2)}•••`);
      expect(await axeViolations(page), '/palm-register waiting for the owner').toEqual([]);
      await expectHandsOnServer(playwright, baseURL, account, { left: false, right: false });
      const message = await waitForMessage(page.request, account.contact, before);
      expect(message.body).toContain('An admin at Hasta started registering a palm');
      expect(message.body).toContain('left hand');

      // The owner, on their own session, approves it from their dashboard with that code.
      const ownerPage = await signedInPage(browser, baseURL, account);
      await ownerPage.goto('/user-dashboard');
      const requests = ownerPage.getByRole('region', { name: 'Palm registration waiting for your approval' });
      const request = requests.getByRole('form', { name: 'Left hand registration' });
      await expect(request).toContainText('Code sent to');
      expect(await axeViolations(ownerPage), '/user-dashboard with a waiting palm registration').toEqual([]);
      await request.getByLabel('6-digit code').fill(extractCode(message.body));
      await request.getByRole('button', { name: 'Approve' }).click();
      await expect(ownerPage.getByText('Left hand has been registered successfully.')).toBeVisible();
      await expect(requests).toHaveCount(0);
      await ownerPage.context().close();

      await expect(page.getByText('Redirecting to admin dashboard...')).toBeVisible();
      await expectRegistrationState(
        page,
        'Left hand registered ✓ - You can register right hand or continue',
        50,
      );
      await expect(page.getByRole('link', { name: 'Continue to Admin' })).toHaveAttribute('href', '/admin');
      await expect(page).toHaveURL('/admin');

      // The user's row now says YES for the left palm and offers only the right hand.
      const again = await openTab(page, 'Users');
      await again.getByLabel('Search users').fill(account.contact);
      await again.getByRole('button', { name: 'Search', exact: true }).click();
      const updated = again.getByRole('row').filter({ hasText: account.contact });
      await expect(updated.getByRole('cell').nth(7)).toHaveText('YES');
      await expect(updated.getByRole('cell').nth(8)).toHaveText('NO');
      await openRowActions(updated);
      await expect(updated.getByRole('link', { name: /^Register Right Palm/ })).toBeVisible();
      await expect(updated.getByRole('link', { name: /^Register Left Palm/ })).toHaveCount(0);
      await updated.getByRole('link', { name: /^Register Right Palm/ }).click();
      await expect(page.getByRole('heading', { name: 'Registering your RIGHT hand' })).toBeVisible();
      await page.getByRole('button', { name: 'Go Back' }).click();
      await expect(page).toHaveURL('/admin');
    } finally {
      await camera.close();
    }

    // The user sees their own registration.
    await expectHandsOnServer(playwright, baseURL, account, { left: true, right: false });
  });

  test('the scanner guides the hand: the guide box, no palm in the box, too dark; nothing is captured', async ({
    playwright,
    baseURL,
    account,
  }) => {
    test.setTimeout(180_000);
    const seed = newPalmSeed();
    const films = [
      {
        name: 'empty-box',
        options: { seed, identity: 0, show_palm: false },
        feedback: 'No palm in the box: hold your palm flat inside the box.',
      },
      {
        name: 'dark-palm',
        options: { seed, identity: 0, light_gain: 0.2 },
        feedback: 'Too dark: move to better light.',
      },
    ];
    let sessionState: SessionState | undefined;
    for (const film of films) {
      await test.step(film.name, async () => {
        const camera = await launchWithPalmCamera(playwright, film.options, film.name);
        try {
          // One session for both films, confirmed once (a second code could not be sent within a minute).
          let page: Page;
          if (sessionState === undefined) {
            page = await signedInPage(camera, baseURL, account);
            await stepUpByApi(page.request, account.contact);
            await page.goto('/palm-register');
            sessionState = await page.context().storageState();
          } else {
            page = await sameSessionPage(camera, baseURL, sessionState);
            await page.goto('/palm-register');
          }
          await page.getByRole('button', { name: 'Register Left Hand' }).click();
          await page.getByRole('checkbox', { name: 'I agree' }).check();
          await expect(page.getByTestId('palm-feedback')).toHaveText(film.feedback, {
            timeout: SCAN_TIMEOUT_MS,
          });

          // The guide box: the centred square of 0.6 of the 480-pixel side of the 640 × 480 frame.
          const video = await page.getByLabel('Camera preview with the palm guide box').boundingBox();
          const box = await page.getByTestId('palm-guide-box').boundingBox();
          expect(video).not.toBeNull();
          expect(box).not.toBeNull();
          expect((box!.x - video!.x) / video!.width).toBeCloseTo(176 / 640, 2);
          expect((box!.y - video!.y) / video!.height).toBeCloseTo(96 / 480, 2);
          expect(box!.width / video!.width).toBeCloseTo(288 / 640, 2);
          expect(box!.height / video!.height).toBeCloseTo(288 / 480, 2);

          // Nothing is captured while the box shows no usable palm.
          await page.waitForTimeout(2_000);
          await expect(page.getByTestId('palm-feedback')).toHaveText(film.feedback);
          await expect(page.getByText(`Captured 0 of ${PALM_SCAN_FRAMES}`)).toBeVisible();
          await expect(page.getByRole('progressbar', { name: /^Captured/ })).toHaveAttribute(
            'aria-valuenow',
            '0',
          );
          await expect(page.getByText('Registration Complete!')).toHaveCount(0);
        } finally {
          await camera.close();
        }
      });
    }
  });

  test('the quality gate: a blurred palm is told to hold still and nothing of it is taken; once sharp, it registers', async ({
    playwright,
    baseURL,
    account,
  }) => {
    test.setTimeout(240_000);
    // 6 s of the palm out of focus (σ 3 px of the 128-pixel frame), then 3 s of it sharp; the film loops.
    const camera = await launchWithPalmCamera(
      playwright,
      { seed: newPalmSeed(), identity: 0, frames: 90, blur_px: 3, blurred_frames: 60 },
      'blurred-palm',
    );
    try {
      const page = await signedInPage(camera, baseURL, account);
      await stepUpByApi(page.request, account.contact);
      await page.goto('/palm-register');
      await page.getByRole('button', { name: 'Register Left Hand' }).click();
      await page.getByRole('checkbox', { name: 'I agree' }).check();
      // Every hint the scanner shows, and the capture count beside it, as they change.
      const feedback = page.getByTestId('palm-feedback');
      await expect(feedback).toBeVisible();
      await feedback.evaluate((element) => {
        const seen: { hint: string; captured: string }[] = [];
        const progress = () => document.querySelector('[role="progressbar"][aria-valuemax="3"]');
        const note = () =>
          seen.push({
            hint: element.textContent ?? '',
            captured: progress()?.getAttribute('aria-valuenow') ?? '',
          });
        note();
        (window as unknown as { palmHints: typeof seen }).palmHints = seen;
        new MutationObserver(note).observe(element, { childList: true, characterData: true, subtree: true });
      });
      await expect(feedback).toHaveText('Hold still: the picture is blurred.', { timeout: SCAN_TIMEOUT_MS });
      await expect(page.getByText('Registration Complete!')).toBeVisible({ timeout: 2 * SCAN_TIMEOUT_MS });
      await expect(page.getByText('Left hand has been registered successfully.')).toBeVisible();
      const hints = await page.evaluate(
        () => (window as unknown as { palmHints: { hint: string; captured: string }[] }).palmHints,
      );
      // While the picture was blurred, the scan held no frame.
      const blurred = hints.filter((entry) => entry.hint === 'Hold still: the picture is blurred.');
      expect(blurred.length).toBeGreaterThan(0);
      expect(blurred.map((entry) => entry.captured)).toContain('0');
      await expectHandsOnServer(playwright, baseURL, account, { left: true, right: false });
    } finally {
      await camera.close();
    }
  });

  test('the quality hints in Hindi: with the site in Hindi, a blurred palm is told to hold still in Hindi', async ({
    playwright,
    baseURL,
    account,
  }) => {
    test.setTimeout(180_000);
    const camera = await launchWithPalmCamera(
      playwright,
      { seed: newPalmSeed(), identity: 1, blur_px: 3 },
      'blurred-palm-hindi',
    );
    try {
      const page = await signedInPage(camera, baseURL, account);
      await stepUpByApi(page.request, account.contact);
      await page.goto('/palm-register');
      await page.getByLabel('Language').selectOption({ label: 'हिन्दी' });
      await expect(page.locator('html')).toHaveAttribute('lang', 'hi');
      // The page is in Hindi: its buttons too.
      await page.getByRole('button', { name: 'दायाँ हाथ रजिस्टर करें' }).click();
      await page.getByRole('checkbox', { name: 'मैं सहमत हूँ' }).check();
      await expect(page.getByTestId('palm-feedback')).toHaveText('हाथ स्थिर रखें: तस्वीर धुँधली है।', {
        timeout: SCAN_TIMEOUT_MS,
      });
      // The progress too: "0 of 3 pictures taken".
      await expect(page.getByText(`${PALM_SCAN_FRAMES} में से 0 तस्वीरें ली गईं`)).toBeVisible();
      await expect(page.getByText(/Captured/)).toHaveCount(0);
    } finally {
      await camera.close();
    }
  });

  test('logged out, the page sends to /login; without a camera it says so, and the demo palm registers after 2 s', async ({
    page,
    account,
  }) => {
    test.setTimeout(120_000);
    // Signed out, the page is guarded like the dashboard: to /login, remembering the way back.
    await page.goto('/palm-register');
    await expect(page).toHaveURL('/login?next=%2Fpalm-register');

    // This browser has no camera: the scanner says so and offers the demo (the test server allows it).
    await signIn(page, account);
    await stepUpByApi(page.request, account.contact);
    await page.goto('/palm-register');
    await page.getByRole('button', { name: 'Register Right Hand' }).click();
    await page.getByRole('checkbox', { name: 'I agree' }).check();
    await expect(main(page).getByRole('alert')).toHaveText(messages.cameraUnavailable);
    await expect(page.getByRole('button', { name: 'Try the camera again' })).toBeVisible();
    const demo = page.getByRole('region', { name: /Demo mode/ });
    await expect(demo).toContainText('not a real palm');
    expect(await axeViolations(page), '/palm-register without a camera').toEqual([]);
    await demo.getByRole('button', { name: 'Use the demo palm (right hand)' }).click();
    await expect(page.getByText('Demo scan: using the demo palm of this device...')).toBeVisible();
    await expect(page.getByText('Registration Complete!')).toBeVisible({ timeout: SCAN_TIMEOUT_MS });
    await expect(page.getByText('Right hand has been registered successfully.')).toBeVisible();
    await expectRegistrationState(
      page,
      'Right hand registered ✓ - You can register left hand or continue',
      50,
    );
    // The demo seed is the only thing kept on the device.
    const stored = await page.evaluate(() => Object.keys(window.localStorage).sort());
    expect(stored).toEqual(['palmDemoSeed', 'user']);
  });
});

test.describe('Palm payments through the camera', () => {
  test('/receive: the camera identifies the payer, the money moves to the receiver, and the page goes back', async ({
    browser,
    playwright,
    baseURL,
    account: receiver,
    phoneAccount: payer,
  }) => {
    test.setTimeout(240_000);
    const seed = newPalmSeed();
    const payerPalm = { seed, identity: 0 };
    const payerSession = await apiSession(playwright, baseURL, payer);
    await registerPalmByApi(payerSession, payer, payerPalm, 'left');
    const admin = await adminSession(playwright, baseURL);
    await giveValue(admin, payer.user.id, 100);
    await admin.dispose();

    const camera = await launchWithPalmCamera(playwright, payerPalm, 'payer-palm');
    try {
      const page = await signedInPage(camera, baseURL, receiver);
      // This browser becomes the receiver's own device on its first palm scan, after their step-up (issue 22).
      await stepUpByApi(page.request, receiver.contact);
      await page.goto('/user-dashboard');
      await expect(page.getByTestId('balance')).toHaveText(inr(0));
      await page.getByRole('link', { name: 'Receive Money' }).click();
      await page.getByLabel('Expected Amount (INR)').fill('25.50');
      await page.getByRole('button', { name: 'Confirm Receive' }).click();
      await expect(page.getByRole('heading', { name: 'Palm authentication' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Return' })).toBeVisible();
      await expect(page.getByText(messages.authenticationSuccessful)).toBeVisible({
        timeout: SCAN_TIMEOUT_MS,
      });
      // The end state says what happened, not what may happen next ("You can now receive funds.").
      await expect(page.getByText(messages.canReceiveFunds, { exact: false })).toHaveCount(0);
      await expect(
        page.getByText(`Received ${inr(25.5)} from ${seenByReceiver(payer)}.`, { exact: false }),
      ).toBeVisible();
      // Then back one page: the dashboard, with the money.
      await expect(page).toHaveURL('/user-dashboard');
      await expect(page.getByTestId('balance')).toHaveText(inr(25.5));
      await expect(page.getByTestId('history-amount').first()).toHaveText(`+${inr(25.5)}`);
    } finally {
      await camera.close();
    }
    expect(await dashboardBalance(payerSession, payer)).toBe('74.50');
    const palmHash = (await (await payerSession.get('/api/dashboard')).json()).user.palm_hash as string;
    await payerSession.dispose();

    // The payer's history shows the payment and the palm scan that made it.
    const payerPage = await signedInPage(browser, baseURL, payer);
    await payerPage.goto('/user-dashboard');
    await expect(payerPage.getByTestId('balance')).toHaveText(inr(74.5));
    await expect(payerPage.getByTestId('history-amount').first()).toHaveText(`-${inr(25.5)}`);
    await expect(payerPage.getByText('Manual Palm Scan (Success)')).toBeVisible();
    await expect(payerPage.getByText(/^Similarity \d{1,3}\.\d%$/)).toBeVisible();
    // On /history the payment names the palm that paid: the first 20 characters of its hash.
    await payerPage.goto('/history');
    await expect(payerPage.getByText('Sent', { exact: true })).toBeVisible();
    await expect(payerPage.getByText(`${palmHash.slice(0, 20)}...`, { exact: true })).toBeVisible();
    await payerPage.context().close();
  });

  test('/receive above the palm limit: the payer’s code from their phone confirms; Cancel pays nothing', async ({
    playwright,
    baseURL,
    account: receiver,
    phoneAccount: payer,
  }) => {
    test.setTimeout(300_000);
    const seed = newPalmSeed();
    const payerPalm = { seed, identity: 0 };
    const payerSession = await apiSession(playwright, baseURL, payer);
    await registerPalmByApi(payerSession, payer, payerPalm, 'right');
    const admin = await adminSession(playwright, baseURL);
    await giveValue(admin, payer.user.id, 8000);
    await admin.dispose();

    // The payer holds out their palm twice: a film of 200 captures over 40 s (not the default 6, which loop
    // every 2.4 s), small enough to write quickly, so the second scan is a new capture, as a real hand's is,
    // and not a copy the replay guard refuses.
    const camera = await launchWithPalmCamera(
      playwright,
      { ...payerPalm, width_px: 320, height_px: 240, frames: 400, framesPerSample: 2 },
      'payer-palm-code',
    );
    try {
      const page = await signedInPage(camera, baseURL, receiver);
      // This browser becomes the receiver's own device on its first palm scan, after their step-up (issue 22).
      await stepUpByApi(page.request, receiver.contact);
      await page.goto('/receive');
      await page.getByLabel('Expected Amount (INR)').fill('6000');
      await page.getByRole('button', { name: 'Confirm Receive' }).click();
      // The palm names the payer; ₹6,000 is above the palm limit, so a code goes to the payer's phone.
      const codeStep = page.getByText(messages.palmCodeSentPhone);
      const first = await nextMessage(payerSession, payer.contact, () =>
        expect(codeStep).toBeVisible({ timeout: SCAN_TIMEOUT_MS }),
      );
      await expect(page.getByText('SMS OTP', { exact: true })).toBeVisible();
      await expect(page.getByText(`Sent to ••••${payer.contact.slice(-4)}.`, { exact: false })).toBeVisible();
      expect(await axeViolations(page), 'code step').toEqual([]);
      // Cancel: nothing is paid, and the scanner is back.
      await page.getByRole('button', { name: 'Cancel payment' }).click();
      await expect(page.getByText(messages.palmPaymentCancelled)).toBeVisible();
      expect(await dashboardBalance(payerSession, payer)).toBe('8000.00');
      // The code of a cancelled payment pays nothing; a new scan sends a new one.
      const second = await nextMessage(payerSession, payer.contact, () =>
        expect(codeStep).toBeVisible({ timeout: SCAN_TIMEOUT_MS }),
      );
      const code = extractCode(second.body);
      expect(second.id).not.toBe(first.id);
      await page.getByLabel('Payer’s 6-digit code').fill(code === '000000' ? '111111' : '000000');
      await page.getByRole('button', { name: 'Confirm payment' }).click();
      await expect(page.getByText(messages.invalidVerificationCode)).toBeVisible();
      await page.getByLabel('Payer’s 6-digit code').fill(code);
      await page.getByRole('button', { name: 'Confirm payment' }).click();
      await expect(page.getByText(messages.authenticationSuccessful)).toBeVisible();
      await expect(
        page.getByText(`Received ${inr(6000)} from ${seenByReceiver(payer)}.`, { exact: false }),
      ).toBeVisible();
    } finally {
      await camera.close();
    }
    expect(await dashboardBalance(payerSession, payer)).toBe('2000.00');
    await payerSession.dispose();
    const receiverSession = await apiSession(playwright, baseURL, receiver);
    expect(await dashboardBalance(receiverSession, receiver)).toBe('6000.00');
    await receiverSession.dispose();
  });

  test('a palm nobody registered is refused with the server’s message and Try Again; no money moves', async ({
    playwright,
    baseURL,
    account: receiver,
    phoneAccount: payer,
  }) => {
    test.setTimeout(240_000);
    const seed = newPalmSeed();
    const payerSession = await apiSession(playwright, baseURL, payer);
    await registerPalmByApi(payerSession, payer, { seed, identity: 0 }, 'left');
    const admin = await adminSession(playwright, baseURL);
    await giveValue(admin, payer.user.id, 100);
    await admin.dispose();

    // Identity 7 of this population was never registered by anyone.
    const camera = await launchWithPalmCamera(playwright, { seed, identity: 7 }, 'stranger-palm');
    try {
      const page = await signedInPage(camera, baseURL, receiver);
      // This browser becomes the receiver's own device on its first palm scan, after their step-up (issue 22).
      await stepUpByApi(page.request, receiver.contact);
      await page.goto('/receive');
      await page.getByLabel('Expected Amount (INR)').fill('10');
      await page.getByRole('button', { name: 'Confirm Receive' }).click();
      await expect(main(page).getByRole('alert')).toHaveText(messages.palmNotRecognised, {
        timeout: SCAN_TIMEOUT_MS,
      });
      expect(await axeViolations(page), '/receive, palm refused').toEqual([]);
      // Try Again reopens the camera and scans again.
      await page.getByRole('button', { name: 'Try Again' }).click();
      await expect(page.getByLabel('Camera preview with the palm guide box')).toBeVisible();
      await expect(main(page).getByRole('alert')).toHaveText(messages.palmNotRecognised, {
        timeout: SCAN_TIMEOUT_MS,
      });
      await page.getByRole('button', { name: 'Return' }).click();
    } finally {
      await camera.close();
    }
    expect(await dashboardBalance(payerSession, payer)).toBe('100.00');
    const receiverSession = await apiSession(playwright, baseURL, receiver);
    expect(await dashboardBalance(receiverSession, receiver)).toBe('0.00');
    await receiverSession.dispose();
    await payerSession.dispose();
  });

  test('Accept Palm: a merchant approved from a vendor registration takes a payment from the customer’s palm into the store and withdraws it', async ({
    playwright,
    baseURL,
    account: customer,
  }) => {
    test.setTimeout(240_000);
    const seed = newPalmSeed();
    const palm = { seed, identity: 1 };
    const customerSession = await apiSession(playwright, baseURL, customer);
    await registerPalmByApi(customerSession, customer, palm, 'right');
    const admin = await adminSession(playwright, baseURL);
    await giveValue(admin, customer.user.id, 100);
    await admin.dispose();
    const merchant = await createMerchant(playwright, baseURL, 'Palm Dosa Corner');

    const camera = await launchWithPalmCamera(playwright, palm, 'customer-palm');
    try {
      const page = await signedInPage(camera, baseURL, merchant);
      // Accept Palm makes this browser a terminal of the store on its first scan, after the owner's step-up.
      await stepUpByApi(page.request, merchant.contact);
      await page.goto('/store-dashboard');
      await page.getByRole('tab', { name: 'Accept Palm' }).click();
      await expect(page.getByText(/Palm acceptance needs the palm scanner/)).toHaveCount(0);
      await page.getByRole('button', { name: 'Process Payment' }).click();
      const form = page.getByRole('form', { name: 'Process Transaction' });
      await form.getByLabel('Amount (INR)').fill('40');
      await form.getByRole('button', { name: 'Continue to Palm Scan' }).click();
      await expect(page.getByRole('heading', { name: `Palm scan for ${inr(40)}` })).toBeVisible();
      await expect(page.getByLabel('Camera preview with the palm guide box')).toBeVisible();
      expect(await axeViolations(page), 'Accept Palm scanner').toEqual([]);
      await expect(page.getByText(messages.transactionSuccessful)).toBeVisible({ timeout: SCAN_TIMEOUT_MS });
      await expect(page.getByText(messages.paymentProcessed)).toBeVisible();
      // The result names the amount and the payer, masked as the store may see them.
      await expect(page.getByTestId('payment-summary')).toHaveText(
        `Received ${inr(40)} from ${seenByReceiver(customer)}.`,
      );
      await page.getByRole('button', { name: 'Close' }).click();
      await expect(page.getByRole('button', { name: 'Process Payment' })).toBeVisible();
      await expect(page.getByTestId('store-balance')).toHaveText(inr(40));

      // The palm payment is the store's to withdraw: to a saved bank account, held until an admin settles it.
      await page.getByRole('tab', { name: 'Withdraw' }).click();
      const bankForm = page.getByRole('form', { name: 'Add a bank account' });
      await bankForm.getByLabel('Account holder name').fill('Dosa Corner Owner');
      await bankForm.getByLabel('Account number').fill('123456789012');
      await bankForm.getByLabel('IFSC').fill('HDFC0001234');
      await bankForm.getByRole('button', { name: 'Save bank account' }).click();
      // A bank account and a withdrawal each need the owner's code first (issue 23).
      await confirmItsYou(page, merchant.contact);
      await expect(page.getByText(messages.bankAccountSaved)).toBeVisible();
      const withdrawForm = page.getByRole('form', { name: 'Withdraw to your bank' });
      await expect(withdrawForm).toContainText(`Available to withdraw: ${inr(40)}`);
      await withdrawForm.getByLabel('Withdrawal amount (INR)').fill('40');
      await withdrawForm.getByRole('button', { name: 'Withdraw' }).click();
      await confirmItsYou(page, merchant.contact);
      await expect(page.getByRole('listitem', { name: `Withdrawal ${inr(40)} pending` })).toBeVisible();
      await expect(withdrawForm).toContainText(`Available to withdraw: ${inr(0)}`);
    } finally {
      await camera.close();
    }
    expect(await dashboardBalance(customerSession, customer)).toBe('60.00');
    await customerSession.dispose();
  });

  test('Consent tab: withdrawing stops palm payments, consent given again, erasing removes the palm data', async ({
    browser,
    playwright,
    baseURL,
    account: payer,
    phoneAccount: receiver,
  }) => {
    test.setTimeout(300_000);
    const seed = newPalmSeed();
    const palm = { seed, identity: 0 };
    const payerSession = await apiSession(playwright, baseURL, payer);
    await registerPalmByApi(payerSession, payer, palm, 'left');
    const admin = await adminSession(playwright, baseURL);
    await giveValue(admin, payer.user.id, 100);
    await admin.dispose();

    const payerPage = await signedInPage(browser, baseURL, payer);
    await payerPage.goto('/user-dashboard');
    await payerPage.getByRole('tab', { name: 'Consent' }).click();
    await expect(payerPage.getByTestId('consent-status')).toHaveText('Active & Verified');
    await expect(payerPage.getByTestId('consent-hash')).toHaveText(/^[0-9a-f]{16}…$/);
    await expect(payerPage.getByText(/original biometric data is never stored/)).toBeVisible();
    await expect(payerPage.getByRole('list', { name: 'Registered hands' })).toContainText('Left hand');
    const record = payerPage.getByRole('list', { name: 'Consent record' });
    await expect(record.getByRole('listitem')).toHaveCount(2);
    await expect(record).toContainText('Consent given (left hand)');
    await expect(record).toContainText('Palm registered (left hand)');
    expect(await axeViolations(payerPage), 'consent tab, active').toEqual([]);

    // Each event's receipt verifies on /verify.
    await record
      .getByRole('listitem')
      .filter({ hasText: 'Palm registered' })
      .getByRole('link', { name: /^Verify receipt/ })
      .click();
    await expect(payerPage).toHaveURL(/\/verify\?id=/);
    await expect(payerPage.getByLabel('Receipt (JSON)')).toHaveValue(/"inclusion_proof"/, {
      timeout: SCAN_TIMEOUT_MS,
    });
    await payerPage.getByRole('button', { name: 'Verify', exact: true }).click();
    await expect(payerPage.getByRole('status').filter({ hasText: 'Receipt verified' })).toBeVisible();
    await payerPage.goBack();

    // Withdraw, confirmed.
    await payerPage.getByRole('tab', { name: 'Consent' }).click();
    await payerPage.getByRole('button', { name: 'Withdraw consent' }).click();
    const dialog = payerPage.getByRole('dialog', { name: 'Withdraw consent?' });
    await expect(dialog).toContainText('Palm payments stop for your account');
    await dialog.getByRole('button', { name: 'Confirm withdrawal' }).click();
    await expect(
      payerPage.getByRole('status').filter({ hasText: messages.palmConsentWithdrawn }),
    ).toBeVisible();
    await expect(payerPage.getByTestId('consent-status')).toHaveText('Consent withdrawn');
    await expect(payerPage.getByRole('button', { name: 'Give consent again' })).toBeVisible();
    await expect(record).toContainText('Consent withdrawn (left hand)');

    // The payer's palm no longer pays.
    const camera = await launchWithPalmCamera(playwright, palm, 'withdrawn-palm');
    try {
      const page = await signedInPage(camera, baseURL, receiver);
      // This browser becomes the receiver's own device on its first palm scan, after their step-up (issue 22).
      await stepUpByApi(page.request, receiver.contact);
      await page.goto('/receive');
      await page.getByLabel('Expected Amount (INR)').fill('10');
      await page.getByRole('button', { name: 'Confirm Receive' }).click();
      await expect(main(page).getByRole('alert')).toHaveText(messages.palmNotRecognised, {
        timeout: SCAN_TIMEOUT_MS,
      });

      // Consent given again (with the notice), then the palm data erased for good.
      await payerPage.getByRole('button', { name: 'Give consent again' }).click();
      const restore = payerPage.getByRole('dialog', { name: 'Give consent again?' });
      await expect(restore).toContainText(PALM_CONSENT_NOTICE);
      await restore.getByRole('button', { name: 'I agree: give consent again' }).click();
      await expect(
        payerPage.getByRole('status').filter({ hasText: messages.palmConsentRestored }),
      ).toBeVisible();
      await expect(payerPage.getByTestId('consent-status')).toHaveText('Active & Verified');

      await payerPage.getByRole('button', { name: 'Erase palm data' }).click();
      const erase = payerPage.getByRole('dialog', { name: 'Erase palm data?' });
      await expect(erase).toContainText('This cannot be undone');
      await erase.getByRole('button', { name: 'Erase permanently' }).click();
      await expect(payerPage.getByRole('status').filter({ hasText: messages.palmDataErased })).toBeVisible();
      await expect(payerPage.getByTestId('consent-status')).toHaveText('Palm not registered');
      await expect(payerPage.getByText('No biometric data found')).toBeVisible();
      await expect(payerPage.getByText('No hand is registered.')).toBeVisible();
      await expect(payerPage.getByRole('button', { name: 'Erase palm data' })).toHaveCount(0);
      await expect(record).toContainText('Palm data erased (left hand)');
      expect(await axeViolations(payerPage), 'consent tab, erased').toEqual([]);

      // Still refused after the erasure.
      await page.getByRole('button', { name: 'Try Again' }).click();
      await expect(main(page).getByRole('alert')).toHaveText(messages.palmNotRecognised, {
        timeout: SCAN_TIMEOUT_MS,
      });
    } finally {
      await camera.close();
    }
    expect(await dashboardBalance(payerSession, payer)).toBe('100.00');
    await payerSession.dispose();
    await payerPage.context().close();
  });

  test('demo mode on one device: the demo palm registered here pays a receiver signed in here later', async ({
    page,
    playwright,
    baseURL,
    account: payer,
    phoneAccount: receiver,
  }) => {
    test.setTimeout(180_000);
    const admin = await adminSession(playwright, baseURL);
    await giveValue(admin, payer.user.id, 50);
    await admin.dispose();

    // The payer registers the left demo palm of this device (no camera in this browser).
    await signIn(page, payer);
    await stepUpByApi(page.request, payer.contact);
    await page.goto('/palm-register');
    await page.getByRole('button', { name: 'Register Left Hand' }).click();
    await page.getByRole('checkbox', { name: 'I agree' }).check();
    await page.getByRole('button', { name: 'Use the demo palm (left hand)' }).click();
    await expect(page.getByText('Registration Complete!')).toBeVisible({ timeout: SCAN_TIMEOUT_MS });

    // The receiver signs in on the same device; the demo offers both demo palms.
    const login = await page.request.post('/api/auth/login', {
      data: { phone: receiver.contact, password: receiver.password },
    });
    expect(login.status(), await login.text()).toBe(200);
    const { user } = (await login.json()) as { user: unknown };
    await page.evaluate((stored) => window.localStorage.setItem('user', JSON.stringify(stored)), user);
    // This browser becomes the receiver's own device on its first palm scan, after their step-up (issue 22).
    await stepUpByApi(page.request, receiver.contact);
    await page.goto('/receive');
    await page.getByLabel('Expected Amount (INR)').fill('5');
    await page.getByRole('button', { name: 'Confirm Receive' }).click();
    // Before the palm pays, the payer reads the amount and the payee (the receiver's name, shortened).
    await expect(page.getByTestId('pay-prompt')).toHaveText(`Pay ${inr(5)} to ${receiver.user.username}`);
    await expect(page.getByRole('button', { name: 'Demo right palm' })).toBeVisible();
    await page.getByRole('button', { name: 'Demo left palm' }).click();
    await expect(page.getByText(messages.authenticationSuccessful)).toBeVisible({ timeout: SCAN_TIMEOUT_MS });
    await expect(
      page.getByText(`Received ${inr(5)} from ${seenByReceiver(payer)}.`, { exact: false }),
    ).toBeVisible();

    const payerSession = await apiSession(playwright, baseURL, payer);
    expect(await dashboardBalance(payerSession, payer)).toBe('45.00');
    await payerSession.dispose();
  });
});
