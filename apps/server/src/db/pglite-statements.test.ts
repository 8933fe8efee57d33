import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './database';
import { PgliteStatements } from './pglite-statements';

const INT8_OID = 20;

describe('PGlite statements prepared once', () => {
  let lite: PGlite;
  beforeEach(async () => {
    lite = await PGlite.create('memory://', {
      parsers: { [INT8_OID]: (value: string) => BigInt(value) },
    });
    await lite.exec(`CREATE TABLE things (
      id uuid PRIMARY KEY, n int8 NOT NULL, tags text[], at timestamptz, raw bytea, doc jsonb, note text,
      ok boolean, price numeric);
      CREATE TABLE twins (LIKE things INCLUDING ALL)`);
  });
  afterEach(async () => {
    await lite.close();
  });

  const prepared = async () =>
    Number(
      (await lite.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_prepared_statements')).rows[0]!.n,
    );

  it('answers every statement as PGlite.query does, parameters and results alike', async () => {
    const statements = new PgliteStatements(lite);
    const rows = [
      [
        '6f1d3c1e-8a4b-4c1e-9d2a-0b6a0c3e5f71',
        9_007_199_254_740_993n,
        ['a', 'b,c', 'd"e'],
        new Date('2026-11-25T10:00:00.123Z'),
        new Uint8Array([0, 1, 255]),
        { k: [1, 'x'] },
        null,
        true,
        '12.50',
      ],
      ['0e2f7a90-3b5c-4d6e-8f10-2a3b4c5d6e7f', -1n, [], null, null, null, "it's", false, null],
    ];
    // Each row through the statements into `things`, and through PGlite.query into its twin.
    const insert = (table: string) => `INSERT INTO ${table} (id, n, tags, at, raw, doc, note, ok, price)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`;
    for (const values of rows) {
      const ours = await statements.query(insert('things'), values);
      const theirs = await lite.query(insert('twins'), values);
      expect(ours.rows).toEqual(theirs.rows);
      expect(ours.fields).toEqual(theirs.fields);
      expect(ours.affectedRows).toBe(1);
    }
    const select = 'SELECT * FROM things WHERE id = ANY($1::uuid[]) ORDER BY n';
    const ids = rows.map((row) => row[0]);
    const ours = await statements.query(select, [ids]);
    expect(ours.rows).toEqual((await lite.query(select.replace('things', 'twins'), [ids])).rows);
    expect(ours.rows.map((row) => row.n)).toEqual([-1n, 9_007_199_254_740_993n]);
    expect(ours.rows[1]!.raw).toEqual(new Uint8Array([0, 1, 255]));
    expect(ours.rows[1]!.tags).toEqual(['a', 'b,c', 'd"e']);

    const update = await statements.query('UPDATE things SET note = $1 WHERE n <> $2', ['x', 0n]);
    expect(update.affectedRows).toBe(2);
    expect(update.rows).toEqual([]);
  });

  it('prepares a text once and binds it after', async () => {
    const statements = new PgliteStatements(lite);
    for (let i = 0; i < 5; i++) {
      expect((await statements.query('SELECT $1::int + 1 AS n', [i])).rows).toEqual([{ n: i + 1 }]);
    }
    expect(statements.size).toBe(1);
    expect(await prepared()).toBe(1);
    await statements.query('SELECT $1::int + 2 AS n', [1]);
    expect(await prepared()).toBe(2);
  });

  it('keeps at most its bound, closing the least recently used', async () => {
    const statements = new PgliteStatements(lite, 3);
    for (let i = 0; i < 5; i++) await statements.query(`SELECT ${i} AS n`);
    // The two evicted are closed with the next execution.
    await statements.query('SELECT 1 AS one');
    expect(statements.size).toBe(3);
    expect(await prepared()).toBe(3);
    // Recently used stays: 4 was used last before 'one', so 2 and 3 went first.
    await statements.query('SELECT 4 AS n');
    await statements.query('SELECT 5 AS n');
    await statements.query('SELECT 6 AS n');
    const names = await lite.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements');
    expect(names.rows.map((row) => row.statement).sort()).toEqual([
      'SELECT 4 AS n',
      'SELECT 5 AS n',
      'SELECT 6 AS n',
    ]);
  });

  it('reports errors as PostgreSQL does and keeps working', async () => {
    const statements = new PgliteStatements(lite);
    await expect(statements.query('SELEC 1')).rejects.toMatchObject({ code: '42601' });
    expect(statements.size).toBe(0);
    const byId = 'SELECT n FROM things WHERE id = $1';
    await expect(statements.query(byId, ['not a uuid'])).rejects.toMatchObject({ code: '22P02' });
    expect((await statements.query(byId, ['6f1d3c1e-8a4b-4c1e-9d2a-0b6a0c3e5f71'])).rows).toEqual([]);
  });

  it('keeps a statement first prepared in a transaction that rolled back', async () => {
    const statements = new PgliteStatements(lite);
    await statements.query('BEGIN');
    await statements.query('INSERT INTO things (id, n) VALUES ($1, $2)', [
      '6f1d3c1e-8a4b-4c1e-9d2a-0b6a0c3e5f71',
      1n,
    ]);
    await expect(statements.query('SELECT 1 / $1::int AS n', [0])).rejects.toMatchObject({ code: '22012' });
    // In the aborted transaction nothing runs, prepared or not.
    await expect(statements.query('SELECT n FROM things')).rejects.toMatchObject({ code: '25P02' });
    await statements.query('ROLLBACK');
    expect((await statements.query('SELECT 1 / $1::int AS n', [1])).rows).toEqual([{ n: 1 }]);
    expect(
      (
        await statements.query('INSERT INTO things (id, n) VALUES ($1, $2) RETURNING n', [
          '6f1d3c1e-8a4b-4c1e-9d2a-0b6a0c3e5f71',
          2n,
        ])
      ).rows,
    ).toEqual([{ n: 2n }]);
  });
});

describe('PGlite statements across a schema change', () => {
  let database: Database;
  beforeEach(async () => {
    database = await openDatabase({ dataDir: 'memory://' });
  });
  afterEach(async () => {
    await database.close();
  });

  it('prepares again what a migration may have changed', async () => {
    await database.withSession((session) => session.exec('CREATE TABLE shapes (id int PRIMARY KEY)'));
    await sql`INSERT INTO shapes (id) VALUES (${1})`.execute(database.db);
    const all = () => sql<Record<string, unknown>>`SELECT * FROM shapes`.execute(database.db);
    expect((await all()).rows).toEqual([{ id: 1 }]);
    // A prepared SELECT * cannot change its columns: it must be prepared anew.
    await database.withSession((session) =>
      session.exec('ALTER TABLE shapes ADD COLUMN sides int DEFAULT 4'),
    );
    expect((await all()).rows).toEqual([{ id: 1, sides: 4 }]);
  });
});
