import { messages } from '@hasta/contracts/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedKiosks } from '../src/bootstrap/demo-data';
import { bearer, registerUser, uniqueEmail, signInAsAdmin } from './support/auth-helpers';
import { buildTestApp, testDatabaseKind, type TestApp } from './support/test-app';

describe(`public forms and kiosks on ${testDatabaseKind}`, () => {
  let test: TestApp;
  let adminToken: string;
  let userToken: string;
  const post = (url: string, payload: object) => test.app.inject({ method: 'POST', url, payload });
  const get = (url: string, token?: string) =>
    test.app.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });

  beforeAll(async () => {
    test = await buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '30000' } });
    await seedKiosks(test.database.db);
    adminToken = await signInAsAdmin(test.app, test.database);
    userToken = (await registerUser(test.app, test.database)).token;
  });
  afterAll(async () => {
    await test.close();
  });

  const applicant = () => ({
    username: 'Kavya',
    email: uniqueEmail('wait'),
    phonenumber: '+91 98765 43210',
    description: 'Shop owner in Pune',
  });

  it('takes a waitlist entry once per email, and only admins list or delete them', async () => {
    const entry = applicant();
    const joined = await post('/api/applicants', entry);
    expect(joined.statusCode).toBe(201);
    expect(joined.json().message).toBe(messages.waitlistJoined);
    const again = await post('/api/applicants', { ...entry, email: entry.email.toUpperCase() });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(messages.alreadyOnWaitlist);

    expect((await get('/api/applicants')).statusCode).toBe(401);
    expect((await get('/api/applicants', userToken)).statusCode).toBe(403);
    const listed = (await get('/api/applicants', adminToken)).json().applicants;
    const row = listed.find((a: { email: string }) => a.email === entry.email);
    expect(row).toMatchObject({ username: 'Kavya', phonenumber: '+919876543210' });

    const del = (token?: string) =>
      test.app.inject({
        method: 'DELETE',
        url: `/api/applicants/${row.id}`,
        headers: token ? bearer(token) : {},
      });
    expect((await del(userToken)).statusCode).toBe(403);
    expect((await del(adminToken)).json().message).toBe(messages.applicantDeleted);
    expect((await del(adminToken)).statusCode).toBe(404);
  });

  it.each([
    [
      { username: '', email: 'a@b.in', phonenumber: '+919876543210', description: 'x' },
      messages.allFieldsRequired,
    ],
    [
      { username: 'A', email: 'not-email', phonenumber: '+919876543210', description: 'x' },
      messages.invalidEmail,
    ],
    [{ username: 'A', email: 'a@b.in', phonenumber: '12', description: 'x' }, messages.invalidPhone],
  ])('refuses the waitlist entry %j with its message', async (body, message) => {
    const response = await post('/api/applicants', body);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
  });

  it('stores inquiries, vendor registrations and kiosk applications for admins', async () => {
    expect(
      (
        await post('/api/inquiry', {
          name: 'Dev',
          email_or_phone: 'dev@x.in',
          role: 'developer',
          message: 'API access?',
        })
      ).statusCode,
    ).toBe(201);
    const vendor = await post('/api/vendor-registration', {
      business_name: 'Sharma, "Sons" & Co',
      owner_name: 'R Sharma',
      email: 'sharma@shop.in',
      phone: '9876543210',
      address: 'MG Road, Pune',
      interests: ['PalmPOS Integration', 'API Integration'],
      comments: '',
    });
    expect(vendor.statusCode).toBe(201);
    expect(vendor.json().message).toBe(messages.requestSent);
    const kiosk = await post('/api/kiosk-applications', {
      name: 'Anita',
      email: 'anita@school.in',
      phone: 'call after 5',
      address: 'Jayanagar',
      premises: 'School',
      footfall: '300 a day',
      power: true,
    });
    expect(kiosk.statusCode).toBe(201);
    expect(kiosk.json().message).toBe(messages.hostThankYou);

    expect((await get('/api/inquiry', userToken)).statusCode).toBe(403);
    expect((await get('/api/inquiry', adminToken)).json().inquiries[0]).toMatchObject({ role: 'developer' });
    const [registration] = (await get('/api/vendor-registration', adminToken)).json().registrations;
    expect(registration).toMatchObject({
      business_name: 'Sharma, "Sons" & Co',
      phone: '+919876543210',
      interests: ['PalmPOS Integration', 'API Integration'],
      merchant_id: null,
    });
    // Approved into a merchant, the registration names its merchant account.
    const approved = await test.app.inject({
      method: 'POST',
      url: '/api/merchants',
      headers: bearer(adminToken),
      payload: { vendorRegistrationId: registration.id },
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect((await get('/api/vendor-registration', adminToken)).json().registrations[0]).toMatchObject({
      id: registration.id,
      merchant_id: approved.json().merchant.id,
    });
    expect((await get('/api/kiosk-applications', adminToken)).json().applications[0]).toMatchObject({
      premises: 'School',
      power: true,
      internet: false,
    });
  });

  it('refuses incomplete forms with the spec’s texts', async () => {
    const inquiry = await post('/api/inquiry', {
      name: 'X',
      email_or_phone: '',
      role: 'user',
      message: 'hi',
    });
    expect(inquiry.json().message).toBe(messages.fillAllRequired);
    const role = await post('/api/inquiry', { name: 'X', email_or_phone: 'x', role: 'boss', message: 'hi' });
    expect(role.statusCode).toBe(400);
    const kiosk = await post('/api/kiosk-applications', {
      name: 'A',
      email: 'a@b.in',
      phone: '1',
      address: 'x',
      premises: 'Castle',
      footfall: '1',
    });
    expect(kiosk.json().message).toBe(messages.fillAllRequired);
    const interests = await post('/api/vendor-registration', {
      business_name: 'B',
      owner_name: 'O',
      email: 'o@b.in',
      phone: '9876543210',
      address: 'x',
      interests: ['Free money'],
    });
    expect(interests.statusCode).toBe(400);
  });

  it('answers a bot that fills the honeypot as usual, and stores nothing', async () => {
    const before = (await get('/api/inquiry', adminToken)).json().inquiries.length;
    const response = await post('/api/inquiry', {
      name: 'Bot',
      email_or_phone: 'b@b.in',
      role: 'user',
      message: 'buy',
      website: 'http://spam',
    });
    expect(response.statusCode).toBe(201);
    expect((await get('/api/inquiry', adminToken)).json().inquiries.length).toBe(before);
  });

  it('finds kiosks by pincode, its start, city or area', async () => {
    const names = async (q: string) =>
      (await get(`/api/kiosks?q=${encodeURIComponent(q)}`))
        .json()
        .kiosks.map((k: { city: string }) => k.city);
    expect(await names('560038')).toEqual(['Bengaluru']);
    expect(await names('11')).toEqual(['Delhi']);
    expect(await names('mumbai')).toEqual(['Mumbai']);
    expect(await names('Bandra')).toEqual(['Mumbai']);
    expect(await names('%')).toEqual([]);
    expect(await names('999999')).toEqual([]);
  });

  it('gives each kiosk its Hindi name, address, city and hours, and finds kiosks by them', async () => {
    const kiosks = (await get('/api/kiosks')).json().kiosks as Array<Record<string, string | null>>;
    const bandra = kiosks.find((kiosk) => kiosk['city'] === 'Mumbai');
    expect(bandra).toMatchObject({
      name: 'Hasta Kiosk, Bandra West',
      name_hi: 'Hasta कियोस्क, बांद्रा वेस्ट',
      address_hi: 'लिंकिंग रोड, बांद्रा वेस्ट, मुंबई, महाराष्ट्र 400050',
      city_hi: 'मुंबई',
      hours_hi: 'सुबह 9 से रात 9 बजे तक',
    });
    expect(kiosks.every((kiosk) => kiosk['name_hi'] !== null && kiosk['address_hi'] !== null)).toBe(true);
    const cities = async (q: string) =>
      (await get(`/api/kiosks?q=${encodeURIComponent(q)}`))
        .json()
        .kiosks.map((k: { city: string }) => k.city);
    expect(await cities('मुंबई')).toEqual(['Mumbai']);
    expect(await cities('इंदिरानगर')).toEqual(['Bengaluru']);

    // A database seeded before the Hindi fields existed gets them on the next seed, and nothing else changes.
    await test.database.db
      .updateTable('kiosks')
      .set({ name_hi: null, address_hi: null, city_hi: null, hours_hi: null })
      .execute();
    await seedKiosks(test.database.db);
    const reseeded = (await get('/api/kiosks')).json().kiosks as Array<Record<string, string | null>>;
    expect(reseeded).toEqual(kiosks);
  });
});
