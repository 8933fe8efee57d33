import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAdmin, GENERATED_ADMIN_EMAIL } from '../src/bootstrap/admin';
import { DEMO_USERS, seedDemoData } from '../src/bootstrap/demo-data';
import { migrate } from '../src/db/migrate';
import { auditLedger } from '../src/ledger/ledger';
import { verifyPassword } from '../src/lib/password';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from './support/test-app';

describe(`start-up data on ${testDatabaseKind}`, () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase();
    await migrate(test.database);
  });
  afterAll(async () => {
    await test.drop();
  });

  const admins = () =>
    test.database.db
      .selectFrom('users')
      .select(['email', 'password_hash'])
      .where('role', '=', 'admin')
      .execute();

  it('generates one admin when none is configured and none exists, and only once', async () => {
    const first = await ensureAdmin(test.database.db, undefined);
    expect(first.kind).toBe('generated');
    if (first.kind !== 'generated') return;
    expect(first.email).toBe(GENERATED_ADMIN_EMAIL);
    expect(first.password.length).toBeGreaterThanOrEqual(20);
    const [admin] = await admins();
    expect(admin!.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(admin!.password_hash!, first.password)).toBe(true);

    expect(await ensureAdmin(test.database.db, undefined)).toEqual({ kind: 'existing' });
    expect(await admins()).toHaveLength(1);
  });

  it('creates the configured admin, and on later starts keeps its password', async () => {
    const configured = { email: 'Ops@Hasta.in', password: 'first-password' };
    expect(await ensureAdmin(test.database.db, configured)).toEqual({
      kind: 'configured',
      email: 'ops@hasta.in',
      created: true,
    });
    expect(await ensureAdmin(test.database.db, { ...configured, password: 'other' })).toMatchObject({
      created: false,
    });
    const ops = (await admins()).find((admin) => admin.email === 'ops@hasta.in');
    expect(await verifyPassword(ops!.password_hash!, 'first-password')).toBe(true);
  });

  it('promotes an existing account of the configured email to admin', async () => {
    await test.database.db.insertInto('users').values({ email: 'lead@hasta.in', username: 'Lead' }).execute();
    await ensureAdmin(test.database.db, { email: 'lead@hasta.in', password: 'whatever1' });
    const lead = await test.database.db
      .selectFrom('users')
      .select('role')
      .where('email', '=', 'lead@hasta.in')
      .executeTakeFirstOrThrow();
    expect(lead.role).toBe('admin');
  });

  it('seeds demo people and one merchant with its store, idempotently', async () => {
    expect(await seedDemoData(test.database.db)).toEqual({ created: DEMO_USERS.length + 1 });
    expect(await seedDemoData(test.database.db)).toEqual({ created: 0 });
    // A later start under a smaller wallet limit keeps the opening balances and starts.
    expect(await seedDemoData(test.database.db, { maxBalancePaise: 100n, minAmountPaise: 1n })).toEqual({
      created: 0,
    });
    const merchants = await test.database.db
      .selectFrom('merchants')
      .innerJoin('users', 'users.id', 'merchants.owner_user_id')
      .select(['merchants.store_name', 'users.role'])
      .execute();
    expect(merchants).toEqual([{ store_name: 'Chai Corner, Indiranagar', role: 'merchant' }]);
    const balances = await test.database.db
      .selectFrom('ledger_accounts')
      .innerJoin('users', 'users.id', 'ledger_accounts.user_id')
      .select(['users.email', 'ledger_accounts.credits_posted', 'ledger_accounts.debits_posted'])
      .orderBy('users.email')
      .execute();
    expect(balances.map((row) => [row.email, row.credits_posted - row.debits_posted])).toEqual(
      [...DEMO_USERS]
        .sort((a, b) => a.email.localeCompare(b.email))
        .map((user) => [user.email, user.opening_paise]),
    );
    expect(await auditLedger(test.database.db)).toEqual([]);
  });
});
