import { DEFAULT_LIMITS, LedgerError, type LedgerLimits } from '@hasta/ledger/rules';
import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { Ledger, SYSTEM_ACCOUNT_ID, uuidFromText } from '../ledger/ledger';
import { hashPassword } from '../lib/password';

/** The password of every demo account: the demo runs on a local embedded database only. */
export const DEMO_PASSWORD = 'hasta-demo';

export const DEMO_USERS = [
  { email: 'asha@demo.hasta.local', phone: '+919800000001', username: 'Asha Rao', opening_paise: 500_000n },
  { email: 'ravi@demo.hasta.local', phone: '+919800000002', username: 'Ravi Kumar', opening_paise: 125_050n },
  { email: 'meera@demo.hasta.local', phone: '+919800000003', username: 'Meera Iyer', opening_paise: 20_000n },
] as const;

export const DEMO_MERCHANT = {
  email: 'chai-corner@demo.hasta.local',
  phone: '+919800000010',
  username: 'Chai Corner',
  store_name: 'Chai Corner, Indiranagar',
} as const;

/** The spec's three sample kiosks (§2.3). */
export const SAMPLE_KIOSKS = [
  {
    name: 'Hasta Kiosk, Indiranagar',
    lat: 12.9719,
    lng: 77.6412,
    address: '100 Feet Road, Indiranagar, Bengaluru, Karnataka 560038',
    city: 'Bengaluru',
    pincode: '560038',
    status: 'Active',
    type: 'Registration kiosk',
    hours: '9am to 7pm',
    name_hi: 'Hasta कियोस्क, इंदिरानगर',
    address_hi: '100 फ़ीट रोड, इंदिरानगर, बेंगलुरु, कर्नाटक 560038',
    city_hi: 'बेंगलुरु',
    hours_hi: 'सुबह 9 से शाम 7 बजे तक',
  },
  {
    name: 'Hasta Kiosk, Connaught Place',
    lat: 28.6315,
    lng: 77.2167,
    address: 'Block A, Connaught Place, New Delhi, Delhi 110001',
    city: 'Delhi',
    pincode: '110001',
    status: 'Active',
    type: 'Registration kiosk',
    hours: '10am to 8pm',
    name_hi: 'Hasta कियोस्क, कनॉट प्लेस',
    address_hi: 'ब्लॉक A, कनॉट प्लेस, नई दिल्ली, दिल्ली 110001',
    city_hi: 'दिल्ली',
    hours_hi: 'सुबह 10 से रात 8 बजे तक',
  },
  {
    name: 'Hasta Kiosk, Bandra West',
    lat: 19.0596,
    lng: 72.8295,
    address: 'Linking Road, Bandra West, Mumbai, Maharashtra 400050',
    city: 'Mumbai',
    pincode: '400050',
    status: 'Active',
    type: 'Registration kiosk',
    hours: '9am to 9pm',
    name_hi: 'Hasta कियोस्क, बांद्रा वेस्ट',
    address_hi: 'लिंकिंग रोड, बांद्रा वेस्ट, मुंबई, महाराष्ट्र 400050',
    city_hi: 'मुंबई',
    hours_hi: 'सुबह 9 से रात 9 बजे तक',
  },
] as const;

/**
 * Kiosks are reference data: every database gets them. Idempotent; a database seeded before the Hindi fields
 * existed gets them filled in (and only them: the rest of a kiosk stays as it is).
 */
export async function seedKiosks(db: Kysely<Schema>): Promise<void> {
  await db
    .insertInto('kiosks')
    .values(SAMPLE_KIOSKS.map((kiosk) => ({ ...kiosk })))
    .onConflict((conflict) =>
      conflict.columns(['name', 'pincode']).doUpdateSet((eb) => ({
        name_hi: eb.fn.coalesce('kiosks.name_hi', eb.ref('excluded.name_hi')),
        address_hi: eb.fn.coalesce('kiosks.address_hi', eb.ref('excluded.address_hi')),
        city_hi: eb.fn.coalesce('kiosks.city_hi', eb.ref('excluded.city_hi')),
        hours_hi: eb.fn.coalesce('kiosks.hours_hi', eb.ref('excluded.hours_hi')),
      })),
    )
    .execute();
}

/**
 * Demo people with opening balances and a demo shop, for a local try-out. Idempotent: accounts that exist
 * are left alone, and each opening balance is one ledger transfer with a fixed id, issued once.
 */
export async function seedDemoData(
  db: Kysely<Schema>,
  limits: LedgerLimits = DEFAULT_LIMITS,
): Promise<{ created: number }> {
  const password_hash = await hashPassword(DEMO_PASSWORD);
  let created = 0;
  await db.transaction().execute(async (trx) => {
    for (const user of [...DEMO_USERS, DEMO_MERCHANT]) {
      const role = user === DEMO_MERCHANT ? 'merchant' : 'user';
      const inserted = await trx
        .insertInto('users')
        .values({ email: user.email, phone: user.phone, username: user.username, role, password_hash })
        .onConflict((conflict) => conflict.column('email').where('email', 'is not', null).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!inserted) continue;
      created += 1;
      if (role === 'merchant') {
        await trx
          .insertInto('merchants')
          .values({
            owner_user_id: inserted.id,
            store_name: DEMO_MERCHANT.store_name,
            contact_email: DEMO_MERCHANT.email,
            contact_phone: DEMO_MERCHANT.phone,
            verified_contact_email: DEMO_MERCHANT.email,
            verified_contact_phone: DEMO_MERCHANT.phone,
          })
          .execute();
      }
    }
  });
  const ledger = new Ledger(db, limits);
  for (const person of DEMO_USERS) {
    const user = await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', person.email)
      .executeTakeFirstOrThrow();
    try {
      await ledger.transfer({
        id: uuidFromText(`demo-opening-balance:${person.email}`),
        debitAccountId: SYSTEM_ACCOUNT_ID,
        creditAccountId: await ledger.ensureUserAccount(user.id),
        // Within the wallet limit this server runs with.
        amountPaise:
          person.opening_paise < limits.maxBalancePaise ? person.opening_paise : limits.maxBalancePaise,
        kind: 'issuance',
      });
    } catch (error) {
      // Opened at an earlier start under another limit: that opening balance stands.
      if (!(error instanceof LedgerError && error.code === 'id_reused')) throw error;
    }
  }
  return { created };
}
