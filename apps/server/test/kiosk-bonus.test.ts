import { KIOSK_REGISTRATION_BONUS_POINTS } from '@hasta/contracts/constants';
import type { Hand } from '@hasta/contracts/palm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, registerUser, signInAsAdmin } from './support/auth-helpers';
import {
  createPairingCode,
  pairDevice,
  pairThisBrowser,
  signedScan,
  type SoftwareDevice,
} from './support/device-helpers';
import { auditAfterEachTest } from './support/ledger-helpers';
import { palmSupply, stepUp } from './support/palm-helpers';
import { buildTestApp, RAISED_PALM_RATE_LIMITS, testDatabaseKind, type TestApp } from './support/test-app';

/**
 * The kiosk registration bonus (decision 032, issue 22): a palm enrolled on a paired KIOSK device earns the
 * person the 100 points once, whatever hands or kiosks; an enrolment on their own browser earns nothing.
 */
describe(`the kiosk bonus from a kiosk device on ${testDatabaseKind}`, () => {
  let test: TestApp;
  let adminToken: string;
  let kioskId: string;
  const palms = palmSupply(3100);

  const pointsOf = async (token: string): Promise<number> => {
    const response = await test.app.inject({ method: 'GET', url: '/api/rewards', headers: bearer(token) });
    expect(response.statusCode).toBe(200);
    return (response.json() as { points: number }).points;
  };

  /** Enrols `hand` of the signed-in person on `device` (their step-up done), as /kiosk or /palm-register. */
  async function enrolOn(device: SoftwareDevice, token: string, hand: Hand, palm: number) {
    await stepUp(test.app, token);
    const scan = palms.freshScan(palm);
    const response = await test.app.inject({
      method: 'POST',
      url: '/Palm/register',
      payload: {
        which_hand: hand,
        consent: true,
        scan,
        ...(await signedScan(test.app, device, { purpose: 'enrol' }, scan.frames, token)),
      },
      headers: device.headers(token),
    });
    expect(response.statusCode, response.body).toBe(200);
  }

  const newKiosk = async (name: string) =>
    pairDevice(test.app, await createPairingCode(test.app, adminToken, { kind: 'kiosk', kioskId, name }));

  beforeAll(async () => {
    test = await buildTestApp({
      env: { RATE_LIMIT_PER_MINUTE: '30000', PALM_NEW_ENROLMENT_HOLD_HOURS: '0', ...RAISED_PALM_RATE_LIMITS },
    });
    adminToken = await signInAsAdmin(test.app, test.database);
    kioskId = (
      await test.database.db
        .insertInto('kiosks')
        .values({
          name: 'Phoenix Kiosk',
          lat: 19.09,
          lng: 72.83,
          address: 'LBS Marg',
          city: 'Mumbai',
          pincode: '400070',
          status: 'active',
          type: 'mall',
          hours: '10-10',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  });
  auditAfterEachTest(() => test.database.db);
  afterAll(async () => test?.close());

  it('a palm enrolled on a kiosk earns the bonus once: a second hand or another kiosk earns nothing more', async () => {
    const person = await registerUser(test.app, test.database);
    expect(await pointsOf(person.token)).toBe(0);
    await enrolOn(await newKiosk('Phoenix kiosk 1'), person.token, 'left', palms.newIdentity());
    expect(await pointsOf(person.token)).toBe(KIOSK_REGISTRATION_BONUS_POINTS);
    await enrolOn(await newKiosk('Phoenix kiosk 2'), person.token, 'right', palms.newIdentity());
    expect(await pointsOf(person.token)).toBe(KIOSK_REGISTRATION_BONUS_POINTS);
  });

  it('a palm enrolled on the person’s own browser earns no kiosk bonus', async () => {
    const person = await registerUser(test.app, test.database);
    const browser = await pairThisBrowser(test.app, (await stepUp(test.app, person.token), person.token));
    await enrolOn(browser, person.token, 'left', palms.newIdentity());
    expect(await pointsOf(person.token)).toBe(0);
  });
});
