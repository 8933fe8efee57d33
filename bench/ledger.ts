/**
 * npm run bench:ledger — ledger transfers per second, in process, on PGlite and (with DATABASE_URL_TEST, set
 * by scripts/with-postgres.sh) PostgreSQL: uniform traffic among 1,000 accounts and a hot merchant taking
 * half the transfers, each beside a raw-SQL baseline (the same two counter updates and insert, no rules, no
 * idempotency) run in the same process, so every figure is also a ratio.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../apps/server/src/db/database';
import { migrate } from '../apps/server/src/db/migrate';
import { auditLedger, Ledger, SYSTEM_ACCOUNT_ID } from '../apps/server/src/ledger/ledger';

const ACCOUNTS = 1_000;
const TRANSFERS = Number(process.env.BENCH_TRANSFERS ?? 3_000);
const CONCURRENCY = 64;

async function setUp(database: Database): Promise<{ ledger: Ledger; accounts: string[]; merchant: string }> {
  await migrate(database);
  const ledger = new Ledger(database.db);
  const users = await database.db
    .insertInto('users')
    .values(
      Array.from({ length: ACCOUNTS + 1 }, (_, i) => ({
        email: `bench-${i}-${randomUUID()}@bench.test`,
        username: `Bench ${i}`,
      })),
    )
    .returning('id')
    .execute();
  const accounts: string[] = [];
  for (const user of users) {
    const account = await ledger.ensureUserAccount(user.id);
    await ledger.transfer({
      id: randomUUID(),
      debitAccountId: SYSTEM_ACCOUNT_ID,
      creditAccountId: account,
      amountPaise: 10_000_000n,
      kind: 'issuance',
    });
    accounts.push(account);
  }
  const merchant = accounts.pop()!;
  return { ledger, accounts, merchant };
}

async function run(count: number, work: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) await work(next++);
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

function pick(accounts: string[], merchant: string, hot: boolean): [string, string] {
  const from = accounts[Math.floor(Math.random() * accounts.length)]!;
  if (hot && Math.random() < 0.5) return [from, merchant];
  let to = accounts[Math.floor(Math.random() * accounts.length)]!;
  if (to === from) to = merchant;
  return [from, to];
}

async function bench(name: string, database: Database): Promise<void> {
  const { ledger, accounts, merchant } = await setUp(database);
  const rows: string[] = [];
  for (const hot of [false, true]) {
    const ledgerRate = await run(TRANSFERS, async () => {
      const [from, to] = pick(accounts, merchant, hot);
      await ledger.transfer({
        id: randomUUID(),
        debitAccountId: from,
        creditAccountId: to,
        amountPaise: 100n,
        kind: 'transfer',
      });
    });
    const rawRate = await run(TRANSFERS, async () => {
      const [from, to] = pick(accounts, merchant, hot);
      await database.db.transaction().execute(async (trx) => {
        const id = randomUUID();
        await sql`UPDATE ledger_accounts SET debits_posted = debits_posted + 100 WHERE id = ${from}`.execute(
          trx,
        );
        await sql`UPDATE ledger_accounts SET credits_posted = credits_posted + 100 WHERE id = ${to}`.execute(
          trx,
        );
        await sql`INSERT INTO ledger_requests (id, request_hash) VALUES (${id}, 'raw')`.execute(trx);
        await sql`INSERT INTO ledger_transfers (id, debit_account_id, credit_account_id, amount_paise, kind, phase)
                  VALUES (${id}, ${from}, ${to}, 100, 'transfer', 'single')`.execute(trx);
      });
    });
    rows.push(
      `${name.padEnd(10)} ${(hot ? 'hot merchant 50%' : 'uniform').padEnd(17)} ledger ${ledgerRate.toFixed(0).padStart(6)}/s   raw SQL ${rawRate.toFixed(0).padStart(6)}/s   ratio ${(ledgerRate / rawRate).toFixed(2)}`,
    );
  }
  const findings = await auditLedger(database.db);
  console.log(rows.join('\n'));
  console.log(
    `${name.padEnd(10)} audit: ${findings.length === 0 ? 'the books balance' : findings.join('; ')}`,
  );
}

console.log(
  `ledger transfers, in process, ${TRANSFERS} per run, ${CONCURRENCY} concurrent callers, ${ACCOUNTS} accounts`,
);
const lite = await openDatabase({ dataDir: 'memory://' });
await bench('PGlite', lite);
await lite.close();

const base = process.env.DATABASE_URL_TEST;
if (base) {
  const name = `hasta_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const postgres = await openDatabase({
    databaseUrl: url.toString(),
    dataDir: '',
    onIdleConnectionError: () => {},
  });
  await bench('PostgreSQL', postgres);
  await postgres.close();
  await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
  await admin.end();
} else {
  console.log(
    'PostgreSQL skipped: run through npm run bench:ledger (it starts a throwaway cluster) or set DATABASE_URL_TEST.',
  );
}
