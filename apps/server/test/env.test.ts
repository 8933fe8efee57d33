import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EnvError, parseEnv } from '../src/env';

const SERVER_DIR = fileURLToPath(new URL('..', import.meta.url));

describe('environment', () => {
  it('has defaults for a plain start', () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.DATA_DIR).toBe('./data');
    expect(env.NODE_ENV).toBe('development');
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.SEED_DEMO).toBeUndefined();
    expect(env.COOKIE_SECRET).toMatch(/^[0-9a-f]{64}$/);
    expect(env.SMS_ALLOWED_PREFIXES).toEqual(['+91']);
    expect([env.SMS_BUDGET_PER_CLIENT_PER_HOUR, env.SMS_BUDGET_GLOBAL_PER_HOUR]).toEqual([10, 1000]);
  });

  it('reads the SMS country prefixes as a comma-separated list', () => {
    expect(parseEnv({ SMS_ALLOWED_PREFIXES: '+91, +977,' }).SMS_ALLOWED_PREFIXES).toEqual(['+91', '+977']);
  });

  it('reads flags and numbers, treating empty values as unset', () => {
    const env = parseEnv({ PORT: '8080', SEED_DEMO: '0', DATABASE_URL: 'postgres://u@h/db', SMTP_HOST: '' });
    expect(env.PORT).toBe(8080);
    expect(env.SEED_DEMO).toBe(false);
    expect(env.DATABASE_URL).toBe('postgres://u@h/db');
    expect(env.SMTP_HOST).toBeUndefined();
  });

  it('reads a DATABASE_URL that names a primary and its standby (libpq multi-host form)', () => {
    const url = 'postgres://u:p@db1:5432,db2:5433/hasta?target_session_attrs=read-write';
    expect(parseEnv({ DATABASE_URL: url }).DATABASE_URL).toBe(url);
    expect(() => parseEnv({ DATABASE_URL: 'postgres://u@db1,db2:x/hasta' })).toThrow(
      /DATABASE_URL has a host that is not host or host:port/,
    );
  });

  it.each([
    [{ PORT: 'abc' }, /^Invalid environment: PORT /],
    [{ PORT: '70000' }, /PORT/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must be a postgres/],
    [{ SEED_DEMO: 'maybe' }, /SEED_DEMO/],
    [{ LOG_SIGNING_KEY: 'not-a-key' }, /LOG_SIGNING_KEY must be a signed-note signer key/],
    [{ ADMIN_EMAIL: 'root@hasta.in' }, /ADMIN_EMAIL and ADMIN_PASSWORD must be set together/],
    [{ ADMIN_EMAIL: 'not-an-email', ADMIN_PASSWORD: 'longenough' }, /ADMIN_EMAIL/],
    [
      { NODE_ENV: 'production' },
      /COOKIE_SECRET is required in production.*PUBLIC_URL.*SMTP_HOST.*LOG_SIGNING_KEY.*LOG_SECRET.*PALM_KEY is required in production.*SMS_GATEWAY_URL/,
    ],
    [{ NODE_ENV: 'production', PALM_DEMO_MODE: 'true' }, /PALM_DEMO_MODE cannot be on in production/],
    [{ PALM_KEY: 'too short' }, /PALM_KEY must be at least 32 characters/],
    [{ PALM_DEMO_MODE: 'yes' }, /PALM_DEMO_MODE/],
    [{ LEDGER_MAX_BALANCE_PAISE: '2 lakh' }, /^Invalid environment: LEDGER_MAX_BALANCE_PAISE /],
    [{ LEDGER_MAX_BALANCE_PAISE: '0' }, /LEDGER_MAX_BALANCE_PAISE/],
    [{ LEDGER_MIN_AMOUNT_PAISE: '0.5' }, /LEDGER_MIN_AMOUNT_PAISE/],
    [
      { LEDGER_MAX_BALANCE_PAISE: '100', LEDGER_MIN_AMOUNT_PAISE: '101' },
      /LEDGER_MIN_AMOUNT_PAISE must not be above LEDGER_MAX_BALANCE_PAISE/,
    ],
    [{ LEDGER_EXPIRY_INTERVAL_MS: '-1' }, /LEDGER_EXPIRY_INTERVAL_MS/],
    [{ SMS_ALLOWED_PREFIXES: '91' }, /SMS_ALLOWED_PREFIXES.* must list country prefixes such as \+91/],
    [{ SMS_ALLOWED_PREFIXES: '+91,+1x' }, /SMS_ALLOWED_PREFIXES/],
    [{ SMS_ALLOWED_PREFIXES: ',' }, /SMS_ALLOWED_PREFIXES must list at least one country prefix/],
    [{ SMS_BUDGET_PER_CLIENT_PER_HOUR: '0' }, /SMS_BUDGET_PER_CLIENT_PER_HOUR/],
    [{ SMS_BUDGET_GLOBAL_PER_HOUR: 'lots' }, /SMS_BUDGET_GLOBAL_PER_HOUR/],
  ])('refuses %j with one clear line', (source, pattern) => {
    let error: unknown;
    try {
      parseEnv(source);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(EnvError);
    expect((error as Error).message).toMatch(pattern);
    expect((error as Error).message).not.toContain('\n');
  });

  it('stops the server at start with that one line and exit code 1', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: SERVER_DIR,
      env: { PATH: process.env.PATH, PORT: 'not-a-port' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toMatch(/^Invalid environment: PORT [^\n]+$/);
  });
});
