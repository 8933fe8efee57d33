import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database';
import { loadMigrations, loadRoutines, migrate } from '../src/db/migrate';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from './support/test-app';

describe(`migrations on ${testDatabaseKind}`, () => {
  let test: TestDatabase;
  beforeEach(async () => {
    test = await createTestDatabase();
  });
  afterEach(async () => {
    await test.drop();
  });

  it('applies every migration once, then nothing', async () => {
    const all = loadMigrations().map((migration) => migration.name);
    expect(all[0]).toBe('001_foundation.sql');
    expect(await migrate(test.database)).toEqual(all);
    expect(await migrate(test.database)).toEqual([]);

    const tables = await test.database.withSession((session) =>
      session.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
      ),
    );
    expect(tables.map((row) => row.table_name)).toEqual(
      expect.arrayContaining(['kiosks', 'merchants', 'outbox_messages', 'schema_migrations', 'users']),
    );
  });

  it('rolls a failing migration back whole and records nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hasta-migrations-'));
    writeFileSync(join(dir, '001_good.sql'), 'CREATE TABLE good_one (id int PRIMARY KEY);');
    writeFileSync(join(dir, '002_bad.sql'), 'CREATE TABLE half_done (id int);\nSELECT no_such_function();');

    await expect(migrate(test.database, loadMigrations(dir))).rejects.toThrow(/002_bad\.sql failed/);

    const tables = await test.database.withSession((session) =>
      session.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
      ),
    );
    const names = tables.map((row) => row.table_name);
    expect(names).toContain('good_one');
    expect(names).not.toContain('half_done');
    const applied = await test.database.withSession((session) =>
      session.query<{ version: string }>('SELECT version FROM schema_migrations ORDER BY version'),
    );
    expect(applied.map((row) => row.version)).toEqual(['001']);
    // The connection is usable again after the rollback.
    await expect(migrate(test.database, loadMigrations(dir).slice(0, 1))).resolves.toEqual([]);
  });

  it('refuses migration files out of sequence or badly named', () => {
    const gap = mkdtempSync(join(tmpdir(), 'hasta-migrations-'));
    writeFileSync(join(gap, '001_a.sql'), 'SELECT 1;');
    writeFileSync(join(gap, '003_c.sql'), 'SELECT 1;');
    expect(() => loadMigrations(gap)).toThrow(/out of sequence/);

    const badName = mkdtempSync(join(tmpdir(), 'hasta-migrations-'));
    writeFileSync(join(badName, '1-first.sql'), 'SELECT 1;');
    expect(() => loadMigrations(badName)).toThrow(/must look like/);
  });

  it('runs two migrators at once without applying anything twice', async () => {
    const results = await Promise.all([migrate(test.database), migrate(test.database)]);
    expect(results.flat()).toEqual(loadMigrations().map((migration) => migration.name));
  });

  it('enforces the schema: lower-case emails, E.164 phones, known roles', async () => {
    await migrate(test.database);
    const insert = (values: Record<string, unknown>) =>
      test.database.db
        .insertInto('users')
        .values({ username: 'Test', ...values } as never)
        .execute();
    await expect(insert({ email: 'Mixed@Case.in' })).rejects.toThrow();
    await expect(insert({ phone: '98765' })).rejects.toThrow();
    await expect(insert({ email: 'a@b.in', role: 'root' })).rejects.toThrow();
    await expect(insert({})).rejects.toThrow();
    await insert({ email: 'a@b.in', phone: '+919876543210' });
    await expect(insert({ email: 'a@b.in' })).rejects.toThrow();
    const row = await test.database.db.selectFrom('users').selectAll().executeTakeFirstOrThrow();
    expect(row.role).toBe('user');
    expect(row.created_at).toBeInstanceOf(Date);
  });

  it('runs the ledger batch on plans made once, not planned again on every call', async () => {
    await migrate(test.database);
    const rows = await test.database.withSession((session) =>
      session.query<{ config: string[] | null }>(
        "SELECT proconfig AS config FROM pg_proc WHERE proname = 'ledger_post_batch'",
      ),
    );
    expect(rows).toEqual([{ config: ['plan_cache_mode=force_generic_plan'] }]);
    const claim = await test.database.withSession((session) =>
      session.query<{ config: string[] | null }>(
        "SELECT proconfig AS config FROM pg_proc WHERE proname = 'ledger_claim'",
      ),
    );
    expect(claim).toEqual([{ config: ['plan_cache_mode=force_generic_plan'] }]);
  });

  it('applies a routine file again when its text changes, and not when it is unchanged', async () => {
    const migrations = mkdtempSync(join(tmpdir(), 'hasta-migrations-'));
    writeFileSync(join(migrations, '001_log.sql'), 'CREATE TABLE routine_runs (name text NOT NULL);');
    const routines = mkdtempSync(join(tmpdir(), 'hasta-routines-'));
    // Each application leaves a row, so an application that should not happen is seen.
    const routine = (answer: number) =>
      writeFileSync(
        join(routines, 'answer.sql'),
        `CREATE OR REPLACE FUNCTION routine_answer() RETURNS int LANGUAGE sql AS 'SELECT ${answer}';
         INSERT INTO routine_runs (name) VALUES ('answer');`,
      );
    writeFileSync(join(routines, 'other.sql'), "INSERT INTO routine_runs (name) VALUES ('other');");
    const state = () =>
      test.database.withSession(async (session) => ({
        answer: (await session.query<{ answer: number }>('SELECT routine_answer() AS answer'))[0]!.answer,
        runs: (await session.query<{ name: string }>('SELECT name FROM routine_runs ORDER BY name')).map(
          (row) => row.name,
        ),
      }));

    routine(1);
    await migrate(test.database, loadMigrations(migrations), loadRoutines(routines));
    expect(await state()).toEqual({ answer: 1, runs: ['answer', 'other'] });
    await migrate(test.database, loadMigrations(migrations), loadRoutines(routines));
    expect(await state()).toEqual({ answer: 1, runs: ['answer', 'other'] });
    routine(2);
    await migrate(test.database, loadMigrations(migrations), loadRoutines(routines));
    expect(await state()).toEqual({ answer: 2, runs: ['answer', 'answer', 'other'] });
    const recorded = await test.database.withSession((session) =>
      session.query<{ name: string }>('SELECT name FROM schema_routines ORDER BY name'),
    );
    expect(recorded.map((row) => row.name)).toEqual(['answer', 'other']);
  });

  it('rolls a failing routine back whole and applies it once it is fixed', async () => {
    const migrations = mkdtempSync(join(tmpdir(), 'hasta-migrations-'));
    writeFileSync(join(migrations, '001_none.sql'), 'SELECT 1;');
    const routines = mkdtempSync(join(tmpdir(), 'hasta-routines-'));
    writeFileSync(
      join(routines, 'broken.sql'),
      "CREATE OR REPLACE FUNCTION half_made() RETURNS int LANGUAGE sql AS 'SELECT 1';\nSELECT no_such_function();",
    );
    await expect(migrate(test.database, loadMigrations(migrations), loadRoutines(routines))).rejects.toThrow(
      /broken\.sql failed/,
    );
    const made = () =>
      test.database.withSession((session) =>
        session.query<{ proname: string }>("SELECT proname FROM pg_proc WHERE proname = 'half_made'"),
      );
    expect(await made()).toEqual([]);
    writeFileSync(
      join(routines, 'broken.sql'),
      "CREATE OR REPLACE FUNCTION half_made() RETURNS int LANGUAGE sql AS 'SELECT 1';",
    );
    await migrate(test.database, loadMigrations(migrations), loadRoutines(routines));
    expect(await made()).toEqual([{ proname: 'half_made' }]);
  });
});

describe('the embedded database', () => {
  it('makes new WAL segments without filling them with zeroes first', async () => {
    const database = await openDatabase({ dataDir: 'memory://' });
    try {
      const rows = await database.withSession((session) =>
        session.query<{ wal_init_zero: string }>('SHOW wal_init_zero'),
      );
      expect(rows).toEqual([{ wal_init_zero: 'off' }]);
    } finally {
      await database.close();
    }
  });
});
