import {
  ADMIN_USERS_COUNT_CAP,
  ADMIN_USERS_PAGE_SIZE_DEFAULT,
  adminUsersResponseSchema,
  type AdminUsersPage,
} from '@hasta/contracts/auth';
import { messages } from '@hasta/contracts/messages';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directoryQueries, encodeCursor } from '../src/admin/user-directory';
import type { Database } from '../src/db/database';
import { bearer, signInAsAdmin } from './support/auth-helpers';
import { buildTestApp, testDatabaseKind, type TestApp } from './support/test-app';

/** Users straight into the table, with chosen creation times: the directory only reads them. */
async function insertUsers(
  database: Database,
  rows: Array<{
    username: string;
    email?: string | null;
    phone?: string | null;
    role?: 'user' | 'merchant' | 'admin';
    created_at: Date;
  }>,
): Promise<string[]> {
  const inserted = await database.db
    .insertInto('users')
    .values(
      rows.map((row) => ({
        username: row.username,
        email: row.email ?? null,
        phone: row.phone ?? null,
        role: row.role ?? 'user',
        created_at: row.created_at,
      })),
    )
    .returning('id')
    .execute();
  return inserted.map((row) => row.id);
}

describe(`admin user directory on ${testDatabaseKind}`, () => {
  let test: TestApp;
  let adminToken: string;
  const list = async (query: Record<string, string> = {}) => {
    const response = await test.app.inject({
      method: 'GET',
      url: `/api/auth/users?${new URLSearchParams(query)}`,
      headers: bearer(adminToken),
    });
    return response;
  };
  const page = async (query: Record<string, string> = {}): Promise<AdminUsersPage> => {
    const response = await list(query);
    expect(response.statusCode, response.body).toBe(200);
    return adminUsersResponseSchema.parse(response.json());
  };

  const base = Date.parse('2026-03-01T10:00:00.000Z');
  let ids: Record<string, string>;

  beforeAll(async () => {
    test = await buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '1000000' } });
    adminToken = await signInAsAdmin(test.app, test.database);
    const [asha, ravi, meera, raviShop, percent, phoneOnly, hiddenAdmin] = await insertUsers(test.database, [
      { username: 'Asha Verma', email: 'asha.verma@example.in', created_at: new Date(base + 1_000) },
      { username: 'Ravi Kumar', email: 'ravi@kumar.co.in', created_at: new Date(base + 2_000) },
      { username: 'MEERA "M" Nair, Jr.', email: 'meera@nair.in', created_at: new Date(base + 3_000) },
      {
        username: 'Ravi Stores',
        email: 'stores@ravi.in',
        role: 'merchant',
        created_at: new Date(base + 4_000),
      },
      { username: '100% Cotton', email: 'cotton@shop.in', created_at: new Date(base + 5_000) },
      { username: 'Phone Only', phone: '+919876543210', created_at: new Date(base + 6_000) },
      {
        username: 'Ravi Admin',
        email: 'ravi.admin@hasta.in',
        role: 'admin',
        created_at: new Date(base + 7_000),
      },
    ]);
    ids = {
      asha: asha!,
      ravi: ravi!,
      meera: meera!,
      raviShop: raviShop!,
      percent: percent!,
      phoneOnly: phoneOnly!,
      hiddenAdmin: hiddenAdmin!,
    };
  });
  afterAll(async () => {
    await test.close();
  });

  it('lists everyone but admins, newest first, with the ledger balance and palm status', async () => {
    const assigned = await test.app.inject({
      method: 'POST',
      url: '/api/assignBalance',
      headers: bearer(adminToken),
      payload: { userId: ids.asha, amount: 1234.5 },
    });
    expect(assigned.statusCode, assigned.body).toBe(200);

    const all = await page();
    expect(all.users.map((user) => user.username)).toEqual([
      'Phone Only',
      '100% Cotton',
      'Ravi Stores',
      'MEERA "M" Nair, Jr.',
      'Ravi Kumar',
      'Asha Verma',
    ]);
    expect(all).toMatchObject({ total: 6, total_exact: true, next_cursor: null });
    expect(all.users.find((user) => user.id === ids.asha)).toMatchObject({
      balance: '1234.50',
      balance_paise: '123450',
      role: 'user',
      left_palm_registered: false,
      right_palm_registered: false,
      created_at: new Date(base + 1_000).toISOString(),
    });
    // Spec §3's names for the same facts: null for a hand with no palm (issue 23).
    for (const user of all.users) {
      expect(user).toHaveProperty('left_palm_hash', null);
      expect(user).toHaveProperty('right_palm_hash', null);
    }
    expect(all.users.find((user) => user.id === ids.ravi)?.balance).toBe('0.00');
    expect(all.users.find((user) => user.id === ids.raviShop)?.role).toBe('merchant');
  });

  it.each([
    ['ravi', ['Ravi Stores', 'Ravi Kumar']],
    ['RAVI', ['Ravi Stores', 'Ravi Kumar']],
    ['kumar.co', ['Ravi Kumar']],
    ['nair, jr', ['MEERA "M" Nair, Jr.']],
    ['"m"', ['MEERA "M" Nair, Jr.']],
    ['98765 43210', ['Phone Only']],
    ['+91 98765-43210', ['Phone Only']],
    ['%', []],
    ['00%', ['100% Cotton']],
    ['_', []],
    ['a', ['Asha Verma']],
    ['ME', ['MEERA "M" Nair, Jr.']],
    ['st', ['Ravi Stores']],
    ['   ', ['Phone Only', '100% Cotton', 'Ravi Stores', 'MEERA "M" Nair, Jr.', 'Ravi Kumar', 'Asha Verma']],
    ['admin', []],
  ])('search %j finds %j (admins never)', async (q, expected) => {
    const found = await page({ q });
    expect(found.users.map((user) => user.username)).toEqual(expected);
    expect(found.total).toBe(expected.length);
  });

  it('pages with a cursor: every user once, ties on creation time broken by id', async () => {
    const sameTime = new Date(base + 10_000);
    const twins = await insertUsers(
      test.database,
      Array.from({ length: 5 }, (_, index) => ({
        username: `Twin ${index}`,
        email: `twin${index}@example.in`,
        created_at: sameTime,
      })),
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const current: AdminUsersPage = await page({ limit: '2', ...(cursor === null ? {} : { cursor }) });
      expect(current.users.length).toBeLessThanOrEqual(2);
      expect(current).toMatchObject({ total: 11, total_exact: true });
      seen.push(...current.users.map((user) => user.id));
      cursor = current.next_cursor;
      pages += 1;
    } while (cursor !== null && pages < 20);
    expect(pages).toBe(6);
    expect(new Set(seen).size).toBe(11);
    expect(seen.slice(0, 5).sort()).toEqual([...twins].sort());
    expect(seen).not.toContain(ids.hiddenAdmin);

    const twinPage = await page({ q: 'twin', limit: '3' });
    expect(twinPage).toMatchObject({ total: 5, total_exact: true });
    expect(twinPage.next_cursor).not.toBeNull();
    const rest = await page({ q: 'twin', limit: '3', cursor: twinPage.next_cursor! });
    expect(rest.next_cursor).toBeNull();
    expect([...twinPage.users, ...rest.users].map((user) => user.id).sort()).toEqual([...twins].sort());
  });

  it('looks users up by id, admins still hidden', async () => {
    const found = await page({ ids: [ids.asha, ids.meera, ids.hiddenAdmin].join(',') });
    expect(found.users.map((user) => user.id).sort()).toEqual([ids.asha, ids.meera].sort());
  });

  it.each([
    [{ limit: '0' }, messages.pageSizeInvalid],
    [{ limit: '501' }, messages.pageSizeInvalid],
    [{ limit: 'ten' }, messages.pageSizeInvalid],
    [{ limit: '1.5' }, messages.pageSizeInvalid],
    [{ limit: '-1' }, messages.pageSizeInvalid],
    [{ q: 'x'.repeat(101) }, messages.userSearchTooLong],
    [{ q: 'tab\there' }, messages.userSearchInvalid],
    [{ cursor: 'not a cursor!' }, messages.pageCursorInvalid],
    [{ cursor: 'bm9wZQ' }, messages.pageCursorInvalid],
    [
      {
        cursor: encodeCursor({
          created_utc: '2026-13-45T99:00:00.000000',
          id: '00000000-0000-4000-8000-000000000000',
        }),
      },
      messages.pageCursorInvalid,
    ],
    [
      {
        cursor: encodeCursor({
          created_utc: '2026-02-30T10:00:00.000000',
          id: '00000000-0000-4000-8000-000000000000',
        }),
      },
      messages.pageCursorInvalid,
    ],
    [{ ids: 'not-a-uuid' }, messages.userIdsInvalid],
    [{ ids: '' }, messages.userIdsInvalid],
  ])('refuses %j with 400: %s', async (query, message) => {
    const response = await list(query);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ code: 'BAD_REQUEST', message });
  });

  it('refuses a repeated parameter and too many ids with 400', async () => {
    const repeated = await test.app.inject({
      method: 'GET',
      url: '/api/auth/users?q=ravi&q=asha',
      headers: bearer(adminToken),
    });
    expect(repeated.statusCode).toBe(400);
    expect(repeated.json().message).toBe(messages.userSearchInvalid);
    const many = Array.from({ length: 101 }, () => crypto.randomUUID()).join(',');
    const tooMany = await list({ ids: many });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().message).toBe(messages.userIdsInvalid);
  });

  it('answers 200 or 400, never 5xx, to any query string', async () => {
    const text = fc.oneof(
      fc.string({ maxLength: 120 }),
      fc.constantFrom('0', '1', '50', '500', '501', 'abc', '%', '_', '\\', "'", 'ravi', '+91 98765'),
      fc.base64String({ maxLength: 80 }),
    );
    const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
    await fc.assert(
      fc.asyncProperty(
        fc.record({ q: text, limit: text, cursor: text, ids: text }, { requiredKeys: [] }),
        async (query) => {
          const response = await list(query as Record<string, string>);
          expect([200, 400], `seed ${seed}: ${JSON.stringify(query)} -> ${response.body}`).toContain(
            response.statusCode,
          );
          if (response.statusCode === 400) expect(response.json().message).toEqual(expect.any(String));
        },
      ),
      { seed, numRuns: 150 },
    );
  });
});

describe(`admin user directory at 100,000 users on ${testDatabaseKind}`, () => {
  const USERS = 100_000;
  let test: TestApp;
  let adminToken: string;

  /** The plan of one of the directory's statements, as text. */
  async function plan(statement: ReturnType<typeof directoryQueries>['page' | 'count']): Promise<string> {
    const result = await sql<Record<string, string>>`EXPLAIN ${statement}`.execute(test.database.db);
    return result.rows.map((row) => Object.values(row)[0]).join('\n');
  }

  beforeAll(async () => {
    test = await buildTestApp();
    adminToken = await signInAsAdmin(test.app, test.database);
    // One statement: 100,000 users, one a minute back from now, every tenth a phone-only account.
    await sql`
      INSERT INTO users (username, email, phone, role, created_at)
      SELECT 'Person ' || g,
             CASE WHEN g % 10 = 0 THEN NULL ELSE 'person' || g || '@example.in' END,
             CASE WHEN g % 10 = 0 THEN '+9170' || lpad(g::text, 8, '0') ELSE NULL END,
             CASE WHEN g % 50 = 0 THEN 'merchant' ELSE 'user' END,
             now() - g * interval '1 minute'
      FROM generate_series(1, ${USERS}) AS g`.execute(test.database.db);
    await sql`INSERT INTO users (username, email, created_at) VALUES ('Zubin Zaveri', 'zubin@zaveri.in', now() - interval '1 year')`.execute(
      test.database.db,
    );
    await sql`ANALYZE users`.execute(test.database.db);
  }, 180_000);
  afterAll(async () => {
    await test.close();
  });

  it('answers the first page with a capped count', async () => {
    const response = await test.app.inject({
      method: 'GET',
      url: '/api/auth/users',
      headers: bearer(adminToken),
    });
    expect(response.statusCode).toBe(200);
    const first = adminUsersResponseSchema.parse(response.json());
    expect(first.users).toHaveLength(ADMIN_USERS_PAGE_SIZE_DEFAULT);
    expect(first.users[0]?.username).toBe('Person 1');
    expect(first).toMatchObject({ total: ADMIN_USERS_COUNT_CAP, total_exact: false });
    expect(first.next_cursor).not.toBeNull();

    const found = await test.app.inject({
      method: 'GET',
      url: '/api/auth/users?q=person4242%40',
      headers: bearer(adminToken),
    });
    expect(found.json()).toMatchObject({ total: 1, total_exact: true, users: [{ username: 'Person 4242' }] });
  });

  it('reads pages through the keyset index, never a whole-table scan or sort', async () => {
    const first = await plan(directoryQueries({}).page);
    expect(first).toMatch(/Index Scan.* using users_listing_idx/);
    expect(first).not.toMatch(/Seq Scan on users|Sort/);

    const deep = await plan(
      directoryQueries({
        cursor: encodeCursor({
          created_utc: '2026-01-01T00:00:00.000000',
          id: '00000000-0000-4000-8000-000000000000',
        }),
      }).page,
    );
    expect(deep).toMatch(/Index Scan.* using users_listing_idx/);
    expect(deep).toMatch(/Index Cond: \(ROW\((u\.)?created_at, (u\.)?id\) </);
    expect(deep).not.toMatch(/Seq Scan on users/);
  });

  // The substring searches look for text no user has (no phone ends in 1; no email has "son4242@x"): a rare
  // search's estimate then never depends on whether ANALYZE's random sample took that one row as a histogram
  // bound (one matching bound in 100 reads as 1 % of the table, and the planner walks the listing index).
  it.each([
    ['a name or email anywhere (trigram)', 'son4242@x', /Bitmap Index Scan on users_search_trgm_idx/],
    ['a phone typed with spaces (trigram)', '70 0000 4241', /Bitmap Index Scan on users_search_trgm_idx/],
    ['the start of a name (prefix)', 'zu', /Bitmap Index Scan on users_username_prefix_idx/],
    // Under the C collation the email's unique index serves a prefix range as well as the prefix index
    // does; which one the planner takes depends on ANALYZE's sample. Either is an index range scan.
    ['the start of an email (prefix)', 'zu', /Bitmap Index Scan on users_email_(prefix_idx|key)\b/],
  ])('searches %s through its index: %j', async (_label, q, index) => {
    const statements = directoryQueries({ q });
    for (const statement of [statements.page, statements.count]) {
      const text = await plan(statement);
      expect(text).toMatch(index);
      expect(text).not.toMatch(/Seq Scan on users/);
    }
  });

  it('stops counting at the cap: at most 10,001 rows are read, not 100,000', async () => {
    const text = await plan(directoryQueries({}).count);
    expect(text).toMatch(/Aggregate[^\n]*\n\s*->\s+Limit\s+\(cost=[0-9.]+ rows=10001 /);
  });
});
