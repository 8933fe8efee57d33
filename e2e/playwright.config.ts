import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { defineConfig, devices } from '@playwright/test';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
// E2E_PORT and E2E_WEB_DIST_DIR let two runs share a machine (each with its own port and build).
const PORT = Number(process.env['E2E_PORT'] ?? 4310);
// localhost, not 127.0.0.1: a passkey's relying party is a domain name (WebAuthn refuses IP addresses), and
// the server's WEBAUTHN_RP_ID defaults to localhost (issue 23). The server still listens on 127.0.0.1.
const BASE_URL = `http://localhost:${PORT}`;

/**
 * Browser tests against the real server serving the built app (`npm run build` first). Each run gets a
 * fresh embedded database in a temp directory; browsers are never downloaded: Debian's Chromium is used.
 */
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  forbidOnly: true,
  // Two workers for the two cores the suite is sized for; each also drives a Chromium against one server.
  workers: 2,
  // No retries: a test that passes only on its second try is a flake to fix, not to hide.
  retries: 0,
  reporter: 'list',
  // Sized for a busy machine (a newcomer's laptop, a shared CI runner), where a step that takes 1 s when idle
  // can take 5 s: a test waits on conditions, never on time, so a longer bound costs nothing when it passes.
  // Tests with several slow steps (argon2 logins, axe runs, a camera) set their own, longer timeout.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  use: {
    baseURL: BASE_URL,
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
          ],
        },
      },
    },
  ],
  webServer: {
    command: 'node --import tsx apps/server/src/main.ts',
    cwd: REPO_ROOT,
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      NODE_ENV: 'test',
      DATA_DIR: path.join(os.tmpdir(), `hasta-e2e-${process.pid}`),
      SEED_DEMO: '0',
      RATE_LIMIT_PER_MINUTE: '100000',
      // The browser tests pay with a palm they just registered; the new-enrolment hold (issue 21) has its own
      // server tests (apps/server/test/palm-limits.test.ts).
      PALM_NEW_ENROLMENT_HOLD_HOURS: '0',
      // The whole suite is one client and a few accounts: the palm calls' own limits out of the way too.
      PALM_RATE_LIMIT_PER_CLIENT_PER_MINUTE: '100000',
      PALM_RATE_LIMIT_PER_SESSION_PER_MINUTE: '100000',
      PALM_RATE_LIMIT_PER_ACCOUNT_PER_HOUR: '100000',
      // ...and so are its texts: the SMS budgets (issue 23) have their own server tests (sms-pumping.test.ts).
      SMS_BUDGET_PER_CLIENT_PER_HOUR: '100000',
      SMS_BUDGET_GLOBAL_PER_HOUR: '100000',
      // Cheap argon2 for the many logins of the suite (refused outside NODE_ENV=test; see lib/password.ts).
      PASSWORD_HASHING: 'fast',
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: 'admin@e2e.hasta.test',
      ADMIN_PASSWORD: 'e2e-admin-password',
      ...(process.env['E2E_WEB_DIST_DIR'] ? { WEB_DIST_DIR: process.env['E2E_WEB_DIST_DIR'] } : {}),
    },
    url: `${BASE_URL}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
