import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, testDatabaseKind, type TestApp } from './support/test-app';

describe(`health on ${testDatabaseKind}`, () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await buildTestApp();
  });
  afterAll(async () => {
    await test.close();
  });

  it('answers 200 with the database it checked', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: testDatabaseKind });
  });

  it('lists the three sample kiosks once they are seeded', async () => {
    const { seedKiosks } = await import('../src/bootstrap/demo-data');
    await seedKiosks(test.database.db);
    await seedKiosks(test.database.db);
    const response = await test.app.inject({ method: 'GET', url: '/api/kiosks' });
    expect(response.statusCode).toBe(200);
    const cities = response
      .json<{ kiosks: Array<{ city: string; status: string }> }>()
      .kiosks.map((k) => k.city);
    expect(cities).toEqual(['Bengaluru', 'Delhi', 'Mumbai']);
  });
});
