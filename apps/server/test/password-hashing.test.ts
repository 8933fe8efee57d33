import { afterEach, describe, expect, it } from 'vitest';
import { EnvError, parseEnv } from '../src/env';
import { hashPassword, setPasswordHashing, verifyPassword } from '../src/lib/password';

const STRONG_HASH = /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/;
const FAST_HASH = /^\$argon2id\$v=19\$m=1024,t=1,p=1\$/;

describe('PASSWORD_HASHING, the test servers’ cheap argon2', () => {
  afterEach(() => setPasswordHashing('strong'));

  it('is strong unless set, and fast is refused outside NODE_ENV=test', () => {
    expect(parseEnv({ NODE_ENV: 'test' }).PASSWORD_HASHING).toBe('strong');
    expect(parseEnv({ NODE_ENV: 'test', PASSWORD_HASHING: 'fast' }).PASSWORD_HASHING).toBe('fast');
    expect(() => parseEnv({ NODE_ENV: 'development', PASSWORD_HASHING: 'fast' })).toThrow(
      new EnvError('Invalid environment: PASSWORD_HASHING can be fast only when NODE_ENV=test'),
    );
    expect(() => parseEnv({ NODE_ENV: 'production', PASSWORD_HASHING: 'fast' })).toThrow(
      /PASSWORD_HASHING can be fast only when NODE_ENV=test/,
    );
    expect(() => parseEnv({ NODE_ENV: 'test', PASSWORD_HASHING: 'weak' })).toThrow(
      /PASSWORD_HASHING must be strong or fast/,
    );
  });

  it('hashes with OWASP’s setting by default and cheaply when fast; either hash verifies under both', async () => {
    const strong = await hashPassword('correct horse');
    expect(strong).toMatch(STRONG_HASH);
    setPasswordHashing('fast');
    const fast = await hashPassword('correct horse');
    expect(fast).toMatch(FAST_HASH);
    expect(await verifyPassword(strong, 'correct horse')).toBe(true);
    expect(await verifyPassword(fast, 'wrong horse')).toBe(false);
    setPasswordHashing('strong');
    expect(await verifyPassword(fast, 'correct horse')).toBe(true);
    expect(await verifyPassword(strong, 'wrong horse')).toBe(false);
  });
});
