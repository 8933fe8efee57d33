import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Database, Session } from './database';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations', import.meta.url));
const MIGRATION_FILE = /^(\d{3})_[a-z0-9_]+\.sql$/;
/**
 * Functions kept as one source file each (CREATE OR REPLACE), applied whenever the file's text changes rather
 * than copied into a new migration for every change.
 */
export const ROUTINES_DIR = fileURLToPath(new URL('../../routines', import.meta.url));
const ROUTINE_FILE = /^([a-z0-9_]+)\.sql$/;
/** Any fixed number: the advisory lock that keeps two starting servers from migrating at once. */
const MIGRATION_LOCK_KEY = 7_340_021;

export interface Migration {
  version: string;
  name: string;
  sql: string;
}

export interface Routine {
  name: string;
  sql: string;
  sha256: string;
}

export function loadRoutines(dir: string = ROUTINES_DIR): Routine[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.sql'))
    .sort()
    .map((file) => {
      const name = ROUTINE_FILE.exec(file)?.[1];
      if (name === undefined) throw new Error(`Routine file name ${file} must look like name.sql`);
      const sql = readFileSync(`${dir}/${file}`, 'utf8');
      return { name, sql, sha256: createHash('sha256').update(sql).digest('hex') };
    });
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

/**
 * Applies every migration not yet applied, each in its own transaction, then every routine whose text
 * changed since it was last applied (new ones included), each in its own transaction. Returns the names of
 * the migrations applied.
 */
export async function migrate(
  database: Database,
  migrations = loadMigrations(),
  routines = loadRoutines(),
): Promise<string[]> {
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
      await applyRoutines(session, routines);
      return done;
    } finally {
      await session.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  });
}

/** The routines whose text differs from the one last applied, applied again; each with its record. */
async function applyRoutines(session: Session, routines: readonly Routine[]): Promise<void> {
  await session.exec(`CREATE TABLE IF NOT EXISTS schema_routines (
    name text PRIMARY KEY,
    sha256 text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  const rows = await session.query<{ name: string; sha256: string }>(
    'SELECT name, sha256 FROM schema_routines',
  );
  const applied = new Map(rows.map((row) => [row.name, row.sha256]));
  for (const routine of routines) {
    if (applied.get(routine.name) === routine.sha256) continue;
    await session.exec('BEGIN');
    try {
      await session.exec(routine.sql);
      await session.query(
        `INSERT INTO schema_routines (name, sha256) VALUES ($1, $2)
         ON CONFLICT (name) DO UPDATE SET sha256 = excluded.sha256, applied_at = now()`,
        [routine.name, routine.sha256],
      );
      await session.exec('COMMIT');
    } catch (error) {
      await session.exec('ROLLBACK');
      throw new Error(`Routine ${routine.name}.sql failed: ${(error as Error).message}`, { cause: error });
    }
  }
}
