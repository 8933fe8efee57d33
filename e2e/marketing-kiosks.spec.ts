import { POS_DEVICE_SPEC, PREMISES_OPTIONS } from '@hasta/contracts/constants';
import { messages } from '@hasta/contracts/messages';
import { expect, test } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';

import { adminList, failMapTiles, serveBlankMapTiles, unique } from './support/marketing';

/** The three sample kiosks every database holds (spec §2.3). */
const KIOSKS = {
  bengaluru: 'Hasta Kiosk, Indiranagar',
  delhi: 'Hasta Kiosk, Connaught Place',
  mumbai: 'Hasta Kiosk, Bandra West',
} as const;

/** The locator's Hindi button, dialog and search field names. */
const HINDI = { open: 'कियोस्क खोजें', dialog: 'कियोस्क खोजें', search: 'पिनकोड, शहर या इलाक़ा' } as const;

const locator = (page: Page) => page.getByRole('dialog', { name: 'Locate a kiosk' });
const kioskList = (dialog: Locator) => dialog.getByRole('list', { name: 'Kiosks' });
const kioskNames = (dialog: Locator) => kioskList(dialog).getByRole('heading', { level: 3 });

test.describe('kiosk locator', () => {
  test('lists the three kiosks with their details, and a search by pincode narrows list and map', async ({
    page,
  }) => {
    await serveBlankMapTiles(page);
    await page.goto('/');
    await page.getByRole('button', { name: 'Locate kiosk' }).click();
    const dialog = locator(page);
    await expect(dialog).toBeVisible();

    await expect(kioskNames(dialog)).toHaveText([KIOSKS.bengaluru, KIOSKS.delhi, KIOSKS.mumbai]);
    await expect(dialog.getByRole('status')).toHaveText('3 kiosks found');
    const bengaluru = kioskList(dialog).getByRole('listitem').filter({ hasText: KIOSKS.bengaluru });
    await expect(bengaluru).toContainText('100 Feet Road, Indiranagar, Bengaluru, Karnataka 560038');
    await expect(bengaluru).toContainText('StatusActive');
    await expect(bengaluru).toContainText('TypeRegistration kiosk');
    await expect(bengaluru).toContainText('Hours9am to 7pm');

    // The map of India carries one marker per kiosk; tiles loaded, so no note.
    const map = dialog.getByRole('region', { name: 'Map of Hasta kiosks in India' });
    await expect(map).toBeVisible();
    await expect(map.locator('.leaflet-marker-icon')).toHaveCount(3);
    await expect(map.getByRole('button', { name: KIOSKS.delhi })).toBeVisible();
    await expect(dialog.getByText('Map unavailable — showing the list.')).toHaveCount(0);

    const searched = page.waitForRequest((request) => request.url().includes('/api/kiosks?q=560038'));
    await dialog.getByLabel('Pincode, city or area').fill('560038');
    await dialog.getByRole('button', { name: 'Search', exact: true }).click();
    await searched;
    await expect(kioskNames(dialog)).toHaveText([KIOSKS.bengaluru]);
    await expect(dialog.getByRole('status')).toHaveText('1 kiosk found for “560038”');
    await expect(map.locator('.leaflet-marker-icon')).toHaveCount(1);

    await dialog.getByLabel('Pincode, city or area').fill('mumbai');
    await dialog.getByLabel('Pincode, city or area').press('Enter');
    await expect(kioskNames(dialog)).toHaveText([KIOSKS.mumbai]);

    await dialog.getByLabel('Pincode, city or area').fill('999999');
    await dialog.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(dialog.getByRole('status')).toHaveText(
      'No kiosks match “999999”. Try another pincode or city.',
    );
    await expect(kioskNames(dialog)).toHaveCount(0);

    await dialog.getByRole('button', { name: 'Show all kiosks' }).click();
    await expect(kioskNames(dialog)).toHaveCount(3);
  });

  test('in Hindi, each kiosk shows its Hindi name, address and hours, and a Hindi search finds it', async ({
    page,
  }) => {
    await serveBlankMapTiles(page);
    await page.addInitScript(() => window.localStorage.setItem('language', 'hi'));
    await page.goto('/');
    await page.getByRole('button', { name: HINDI.open, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: HINDI.dialog });
    await expect(dialog.getByRole('heading', { level: 3 })).toHaveText([
      'Hasta कियोस्क, इंदिरानगर',
      'Hasta कियोस्क, कनॉट प्लेस',
      'Hasta कियोस्क, बांद्रा वेस्ट',
    ]);
    const bandra = dialog.getByRole('listitem').filter({ hasText: 'Hasta कियोस्क, बांद्रा वेस्ट' });
    await expect(bandra).toContainText('लिंकिंग रोड, बांद्रा वेस्ट, मुंबई, महाराष्ट्र 400050');
    await expect(bandra).toContainText('सुबह 9 से रात 9 बजे तक');
    await expect(dialog.getByRole('button', { name: 'Hasta कियोस्क, कनॉट प्लेस' })).toBeVisible();
    await dialog.getByLabel(HINDI.search).fill('मुंबई');
    await dialog.getByLabel(HINDI.search).press('Enter');
    await expect(dialog.getByRole('heading', { level: 3 })).toHaveText(['Hasta कियोस्क, बांद्रा वेस्ट']);
  });

  test('the home pincode box opens the locator with the kiosks for that pincode', async ({ page }) => {
    await failMapTiles(page);
    await page.goto('/');
    await page.getByRole('textbox', { name: 'Find kiosks by pincode' }).fill('110001');
    await page
      .getByRole('search', { name: 'Find kiosks by pincode' })
      .getByRole('button', { name: 'Search' })
      .click();

    const dialog = locator(page);
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Pincode, city or area')).toHaveValue('110001');
    await expect(kioskNames(dialog)).toHaveText([KIOSKS.delhi]);

    // Closing and opening from the button starts afresh, with every kiosk.
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
    await page.getByRole('button', { name: 'Locate kiosk' }).click();
    await expect(dialog.getByLabel('Pincode, city or area')).toHaveValue('');
    await expect(kioskNames(dialog)).toHaveCount(3);
  });

  test('without map tiles (offline) the list still shows, with a note', async ({ page }) => {
    await failMapTiles(page);
    await page.goto('/technology');
    await page.getByRole('button', { name: 'Locate kiosk' }).click();
    const dialog = locator(page);
    await expect(dialog.getByText('Map unavailable — showing the list.')).toBeVisible();
    await expect(dialog.getByRole('region', { name: 'Map of Hasta kiosks in India' })).toBeHidden();
    await expect(kioskNames(dialog)).toHaveText([KIOSKS.bengaluru, KIOSKS.delhi, KIOSKS.mumbai]);
  });
});

test.describe('host a kiosk', () => {
  const hostDialog = (page: Page) => page.getByRole('dialog', { name: 'Host a kiosk' });

  test('asks for every required field, then thanks, stores the application and reopens empty', async ({
    page,
    request,
  }) => {
    await page.goto('/technology');
    await page.getByRole('button', { name: 'Host a Kiosk' }).click();
    const dialog = hostDialog(page);
    await expect(dialog).toBeVisible();
    const submit = dialog.getByRole('button', { name: 'Submit application' });
    const alert = dialog.getByRole('alert');

    await expect(dialog.getByLabel('Email')).toHaveAttribute('type', 'email');
    const premises = dialog.getByLabel('Type of premises');
    await expect(premises.locator('option:not([value=""])')).toHaveText([...PREMISES_OPTIONS]);

    await submit.click();
    await expect(alert).toHaveText(messages.fillAllRequired);

    const name = unique('Host');
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('Email').fill('host@example.in');
    await dialog.getByLabel('Phone').fill('080 1234 5678');
    await dialog.getByLabel('Address of the premises').fill('12 MG Road, Bengaluru');
    await dialog.getByLabel('Daily footfall').fill('about 400');
    await submit.click();
    // Premises still empty.
    await expect(alert).toHaveText(messages.fillAllRequired);
    await expect(premises).toHaveAttribute('aria-invalid', 'true');

    await premises.selectOption('School');
    await dialog.getByLabel('Email').fill('not-an-email');
    await submit.click();
    await expect(alert).toHaveText(messages.invalidEmail);

    await dialog.getByLabel('Email').fill('host@example.in');
    await dialog.getByLabel('Reliable power supply').check();
    await submit.click();
    await expect(dialog.getByRole('status')).toHaveText(messages.hostThankYou);
    await expect(dialog.getByLabel('Name')).toHaveCount(0);

    const { applications } = await adminList<{
      applications: Array<{ name: string; premises: string; power: boolean; internet: boolean }>;
    }>(request, '/api/kiosk-applications');
    expect(applications.find((application) => application.name === name)).toMatchObject({
      premises: 'School',
      power: true,
      internet: false,
    });

    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
    await page.getByRole('button', { name: 'Host a Kiosk' }).click();
    await expect(dialog.getByRole('status')).toHaveText('');
    await expect(dialog.getByLabel('Name')).toHaveValue('');
    await expect(dialog.getByLabel('Type of premises')).toHaveValue('');
    await expect(dialog.getByLabel('Reliable power supply')).not.toBeChecked();
    await expect(dialog.getByRole('alert')).toHaveText('');
  });
});

test.describe('POS device specifications', () => {
  for (const { from, button } of [
    { from: '/', button: 'Partner with POS' },
    { from: '/technology', button: 'View POS Specs' },
  ]) {
    test(`${button} on ${from} shows the spec rows`, async ({ page }) => {
      await page.goto(from);
      await page.getByRole('button', { name: button }).click();
      const dialog = page.getByRole('dialog', { name: 'POS device specifications' });
      await expect(dialog).toBeVisible();
      const rows = dialog.getByRole('row').filter({ has: page.getByRole('rowheader') });
      await expect(rows).toHaveCount(POS_DEVICE_SPEC.length);
      for (const [index, spec] of POS_DEVICE_SPEC.entries()) {
        await expect(rows.nth(index).getByRole('rowheader')).toHaveText(spec.label);
        await expect(rows.nth(index).getByRole('cell')).toHaveText(spec.value);
      }
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
    });
  }
});
