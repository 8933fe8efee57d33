import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Database } from './database';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations', import.meta.url));
const MIGRATION_FILE = /^(\d{3})_[a-z0-9_]+\.sql$/;
/** Any fixed number: the advisory lock that keeps two starting servers from migrating at once. */
const MIGRATION_LOCK_KEY = 7_340_021;

export interface Migration {
  version: string;
  name: string;
  sql: string;
}

export function loadMigrations(dir: string = MIGRATIONS_DIR): Migration[] {
  const names = readdirSync(dir)
    .filter((name) => name.endsWith('.sql'))
    .sort();
  return names.map((name, index) => {
    const match = MIGRATION_FILE.exec(name);
    if (!match?.[1]) throw new Error(`Migration file name ${name} must look like 001_name.sql`);
    const expected = String(index + 1).padStart(3, '0');
    if (match[1] !== expected) throw new Error(`Migration ${name} is out of sequence (expected ${expected})`);
    return { version: match[1], name, sql: readFileSync(`${dir}/${name}`, 'utf8') };
  });
}

/** Applies every migration not yet applied, each in its own transaction. Returns the names applied. */
export async function migrate(database: Database, migrations = loadMigrations()): Promise<string[]> {
  return database.withSession(async (session) => {
    await session.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await session.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
        version text PRIMARY KEY,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
      const rows = await session.query<{ version: string; name: string }>(
        'SELECT version, name FROM schema_migrations ORDER BY version',
      );
      const applied = new Map(rows.map((row) => [row.version, row.name]));
      const done: string[] = [];
      for (const migration of migrations) {
        const appliedName = applied.get(migration.version);
        if (appliedName !== undefined) {
          if (appliedName !== migration.name) {
            throw new Error(
              `Migration ${migration.version} was applied as ${appliedName}, not ${migration.name}`,
            );
          }
          continue;
        }
        await session.exec('BEGIN');
        try {
          await session.exec(migration.sql);
          await session.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
            migration.version,
            migration.name,
          ]);
          await session.exec('COMMIT');
        } catch (error) {
          await session.exec('ROLLBACK');
          throw new Error(`Migration ${migration.name} failed: ${(error as Error).message}`, {
            cause: error,
          });
        }
        done.push(migration.name);
      }
      return done;
    } finally {
      await session.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  });
}
