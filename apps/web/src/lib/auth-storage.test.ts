import { describe, expect, it } from 'vitest';

import {
  SESSION_STORAGE_KEY,
  USER_STORAGE_KEY,
  clearLogin,
  isAdmin,
  isMerchant,
  parseStoredUser,
  purgeStaleAuthEntries,
  readStoredUser,
  storeLogin,
} from './auth-storage';
import type { KeyValueStorage } from './auth-storage';

function memoryStorage(
  entries: Record<string, string> = {},
): KeyValueStorage & { dump(): Record<string, string> } {
  const map = new Map(Object.entries(entries));
  return {
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
    dump: () => Object.fromEntries(map),
  };
}

const asha = {
  id: 'u1',
  email: 'asha@example.in',
  phone: '+91 9876543210',
  username: 'asha',
  is_admin: false,
};

describe('parseStoredUser', () => {
  it('reads a user record and coerces is_admin to a boolean', () => {
    expect(parseStoredUser(JSON.stringify({ ...asha, is_admin: 'true', extra: 1 }))).toEqual({
      ...asha,
      role: null,
      is_admin: true,
    });
    expect(parseStoredUser(JSON.stringify({ id: 7 }))).toEqual({
      id: 7,
      email: null,
      phone: null,
      username: null,
      role: null,
      is_admin: false,
    });
    expect(parseStoredUser(JSON.stringify({ ...asha, is_admin: 'yes' }))?.is_admin).toBe(false);
  });

  it('keeps the role for navigation, and reads an unknown role as none', () => {
    const merchant = parseStoredUser(JSON.stringify({ ...asha, role: 'merchant' }));
    expect(merchant?.role).toBe('merchant');
    expect(isMerchant(merchant)).toBe(true);
    expect(parseStoredUser(JSON.stringify({ ...asha, role: 'owner' }))?.role).toBeNull();
    expect(isMerchant(null)).toBe(false);
  });

  it.each([null, 'undefined', 'null', '{not json', '"text"', '[]', '{}', '{"id":""}'])(
    'treats %s as no user',
    (raw) => {
      expect(parseStoredUser(raw)).toBeNull();
    },
  );
});

describe('purgeStaleAuthEntries', () => {
  it("removes 'undefined' and 'null' user and session entries", () => {
    const storage = memoryStorage({ user: 'undefined', session: 'null', other: 'null' });

    purgeStaleAuthEntries(storage);

    expect(storage.dump()).toEqual({ other: 'null' });
  });

  it('removes an unreadable user and keeps valid entries', () => {
    const broken = memoryStorage({ user: '{oops', session: '{"active":true}' });
    purgeStaleAuthEntries(broken);
    expect(broken.dump()).toEqual({ session: '{"active":true}' });

    const valid = memoryStorage({ user: JSON.stringify(asha) });
    purgeStaleAuthEntries(valid);
    expect(valid.dump()).toEqual({ user: JSON.stringify(asha) });
  });
});

describe('login storage', () => {
  it('stores, reads and clears a login', () => {
    const storage = memoryStorage({ session: 'legacy-token' });

    storeLogin({ ...asha, is_admin: true }, storage);
    const user = readStoredUser(storage);

    expect(user).toEqual({ ...asha, role: null, is_admin: true });
    expect(isAdmin(user)).toBe(true);
    expect(isMerchant(user)).toBe(false);

    clearLogin(storage);
    expect(storage.dump()).toEqual({});
    expect(readStoredUser(storage)).toBeNull();
    expect(isAdmin(null)).toBe(false);
  });

  it('drops an invalid user entry when reading it', () => {
    const storage = memoryStorage({ [USER_STORAGE_KEY]: '{"email":"x@y.z"}', [SESSION_STORAGE_KEY]: 'x' });

    expect(readStoredUser(storage)).toBeNull();
    expect(storage.dump()).toEqual({ [SESSION_STORAGE_KEY]: 'x' });
  });
});
