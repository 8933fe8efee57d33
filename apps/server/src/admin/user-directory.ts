import { rewardsOfUsers } from '../rewards/rewards-repository';
import { tierFor, tierWindowStart } from '../rewards/rewards-rules';
import {
  ADMIN_USERS_COUNT_CAP,
  ADMIN_USERS_PAGE_SIZE_DEFAULT,
  ADMIN_USERS_SUBSTRING_MIN_CHARS,
  PALM_REGISTERED_MARKER,
  type AdminUserRow,
  type AdminUsersPage,
} from '@hasta/contracts/auth';
import { paiseToRupeesText } from '@hasta/ledger/money';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Schema, UserRole } from '../db/schema';
import { AppError } from '../lib/app-error';
import { registeredHands } from '../palm/palm-service';

/**
 * The admin's user directory (spec §2.17): admins hidden, newest first, searched and paged in SQL so it
 * stays fast at 100,000 users and more. Every query here is served by an index of migration 007; the tests
 * check the plans.
 */

/**
 * The searchable text of a user, written exactly as users_search_trgm_idx is: the planner only uses an
 * expression index for the identical expression.
 */
const SEARCH_TEXT = sql`(u.username || E'\\x1f' || coalesce(u.email, '') || E'\\x1f' || coalesce(u.phone, ''))`;

/** A search typed like a phone number ("+91 98765-43210") is matched without its spaces and dashes. */
const PHONE_LIKE = /^\+?[0-9][0-9 ()-]*$/;

/** `%`, `_` and `\` are literal in a search, not LIKE wildcards. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** The WHERE of a search: prefix for 1-2 characters, substring (trigram) from 3. */
export function searchFilter(search: string | undefined): RawBuilder<unknown> {
  const trimmed = (search ?? '').trim();
  if (trimmed === '') return sql`TRUE`;
  const text = PHONE_LIKE.test(trimmed) ? trimmed.replace(/[ ()-]/g, '') : trimmed;
  if (Array.from(text).length < ADMIN_USERS_SUBSTRING_MIN_CHARS) {
    const prefix = `${escapeLike(text.toLowerCase())}%`;
    return sql`(lower(u.username) LIKE ${prefix} OR u.email LIKE ${prefix})`;
  }
  return sql`${SEARCH_TEXT} ILIKE ${`%${escapeLike(text)}%`}`;
}

/** Where a page starts: after the row with this creation time (µs, UTC) and id. */
interface Cursor {
  created_utc: string;
  id: string;
}

const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A calendar time that exists: 2026-02-30 would parse in JavaScript but make PostgreSQL fail. */
function isRealTime(utc: string): boolean {
  const parsed = new Date(`${utc.slice(0, 23)}Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 23) === utc.slice(0, 23);
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(`${cursor.created_utc}|${cursor.id}`, 'utf8').toString('base64url');
}

/** A cursor this server made, or 400: never a 500 for a hand-edited link. */
export function decodeCursor(text: string): Cursor {
  const [created_utc, id, extra] = Buffer.from(text, 'base64url').toString('utf8').split('|');
  if (
    extra !== undefined ||
    created_utc === undefined ||
    id === undefined ||
    !CURSOR_TIME.test(created_utc) ||
    !UUID.test(id) ||
    !isRealTime(created_utc)
  ) {
    throw AppError.of('BAD_REQUEST', 'pageCursorInvalid');
  }
  return { created_utc, id };
}

export interface DirectoryQuery {
  q?: string | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
  ids?: string[] | undefined;
}

interface DirectoryRow {
  id: string;
  username: string;
  email: string | null;
  phone: string | null;
  role: UserRole;
  created_at: Date | string;
  /** created_at to the microsecond in UTC: the keyset cursor (a JS Date keeps only milliseconds). */
  created_utc: string;
  balance_paise: bigint | string;
}

/**
 * The two statements behind a page: its rows (one more than asked, which tells whether a next page exists)
 * and the count of all matches, stopped at the cap. Exposed so the tests can EXPLAIN exactly these.
 */
export function directoryQueries(query: DirectoryQuery): {
  limit: number;
  page: RawBuilder<DirectoryRow>;
  count: RawBuilder<{ n: number | string }>;
} {
  const limit = query.limit ?? ADMIN_USERS_PAGE_SIZE_DEFAULT;
  const filters = [sql`u.role <> 'admin'`, searchFilter(query.q)];
  if (query.ids !== undefined) {
    filters.push(sql`u.id IN (${sql.join(query.ids.map((id) => sql`${id}::uuid`))})`);
  }
  const where = sql.join(filters, sql` AND `);
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const keyset =
    after === undefined
      ? sql`TRUE`
      : sql`(u.created_at, u.id) < (${`${after.created_utc}Z`}::timestamptz, ${after.id}::uuid)`;
  return {
    limit,
    page: sql<DirectoryRow>`
      SELECT u.id, u.username, u.email, u.phone, u.role, u.created_at,
             to_char(u.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') AS created_utc,
             coalesce(a.credits_posted - a.debits_posted, 0) AS balance_paise
      FROM users u
      LEFT JOIN ledger_accounts a ON a.user_id = u.id
      WHERE ${where} AND ${keyset}
      ORDER BY u.created_at DESC, u.id DESC
      LIMIT ${limit + 1}`,
    count: sql<{ n: number | string }>`
      SELECT count(*)::int AS n FROM (
        SELECT 1 FROM users u WHERE ${where} LIMIT ${ADMIN_USERS_COUNT_CAP + 1}
      ) AS matches`,
  };
}

/** One page of the directory and the bounded count of all matches. */
export async function directoryPage(db: Kysely<Schema>, query: DirectoryQuery): Promise<AdminUsersPage> {
  const { limit, page, count } = directoryQueries(query);
  const fetched = (await page.execute(db)).rows;
  const matches = Number((await count.execute(db)).rows[0]?.n ?? 0);
  const rows = fetched.slice(0, limit);
  const last = rows.at(-1);
  const hands = await registeredHands(
    db,
    rows.map((row) => row.id),
  );
  const rewards = await rewardsOfUsers(
    db,
    rows.map((row) => row.id),
    tierWindowStart(new Date()),
  );
  return {
    users: rows.map((row) => {
      const reward = rewards.get(row.id);
      return {
        ...toAdminUserRow(row, hands.get(row.id)),
        points: Number(reward?.points ?? 0n),
        tier: tierFor(reward?.spendPaise ?? 0n),
      };
    }),
    total: Math.min(matches, ADMIN_USERS_COUNT_CAP),
    total_exact: matches <= ADMIN_USERS_COUNT_CAP,
    next_cursor:
      fetched.length > limit && last !== undefined
        ? encodeCursor({ created_utc: last.created_utc, id: last.id })
        : null,
  };
}

function toAdminUserRow(
  row: DirectoryRow,
  hands: { left: boolean; right: boolean } | undefined,
): AdminUserRow {
  const balancePaise = BigInt(row.balance_paise);
  const left = hands?.left ?? false;
  const right = hands?.right ?? false;
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    phone: row.phone,
    role: row.role,
    balance: paiseToRupeesText(balancePaise),
    balance_paise: balancePaise.toString(),
    left_palm_registered: left,
    right_palm_registered: right,
    left_palm_hash: left ? PALM_REGISTERED_MARKER : null,
    right_palm_hash: right ? PALM_REGISTERED_MARKER : null,
    created_at: new Date(row.created_at).toISOString(),
  };
}
