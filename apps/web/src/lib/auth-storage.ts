import { useMemo, useSyncExternalStore } from 'react';

/**
 * The locally stored login (spec §3, §4): the app is "logged in" when a valid `user` entry exists.
 * The session secret is an httpOnly cookie owned by the server and never touches localStorage; `session`
 * is only ever removed here (older builds wrote it).
 */
export const USER_STORAGE_KEY = 'user';
export const SESSION_STORAGE_KEY = 'session';

/** Dispatched on `window` after this tab logs in or out (`storage` events only reach other tabs). */
const AUTH_CHANGE_EVENT = 'hasta:auth-change';

/** Stored values that mean "nothing" (spec §2.1): removed on start. */
const EMPTY_MARKERS: ReadonlySet<string> = new Set(['undefined', 'null']);

const ROLES = ['user', 'merchant', 'admin'] as const;
export type StoredRole = (typeof ROLES)[number];

/** A stored user record, as the app reads it. */
export interface StoredUser {
  id: string | number;
  email: string | null;
  phone: string | null;
  username: string | null;
  /** The server's role, for navigation only (the server checks every call). Older entries have none. */
  role: StoredRole | null;
  /** Coerced to a boolean (spec §3): only an explicit true-ish value grants admin. */
  is_admin: boolean;
}

/** What may be stored: the server's public user record (extra fields are dropped). */
export interface StoredUserInput {
  id: string | number;
  email?: string | null | undefined;
  phone?: string | null | undefined;
  username?: string | null | undefined;
  role?: unknown;
  is_admin?: unknown;
}

const INVALID = Symbol('invalid');

/** Absent and null are "none"; any other non-text makes the record invalid. */
function optionalText(value: unknown): string | null | typeof INVALID {
  if (value === undefined || value === null) return null;
  return typeof value === 'string' ? value : INVALID;
}

function isUserId(value: unknown): value is string | number {
  return (typeof value === 'string' && value.length > 0) || Number.isSafeInteger(value);
}

/**
 * Checks and normalises a user record by hand rather than with zod: the navigation bar reads it on every
 * page, and the schema library is kept off the first load. Anything that is not a user record is null.
 */
function toStoredUser(value: unknown): StoredUser | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const record = value as Record<string, unknown>;
  const id = record['id'];
  const email = optionalText(record['email']);
  const phone = optionalText(record['phone']);
  const username = optionalText(record['username']);
  if (!isUserId(id) || email === INVALID || phone === INVALID || username === INVALID) return null;
  const role = ROLES.find((known) => known === record['role']) ?? null;
  const admin = record['is_admin'];
  return { id, email, phone, username, role, is_admin: admin === true || admin === 'true' || admin === 1 };
}

/** The subset of `Storage` used here, so tests can pass a fake. */
export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function browserStorage(): KeyValueStorage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null; // storage disabled by the browser: behave as logged out
  }
}

function safeGet(storage: KeyValueStorage | null, key: string): string | null {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function safeRemove(storage: KeyValueStorage | null, key: string): void {
  try {
    storage?.removeItem(key);
  } catch {
    // nothing more to do: an unreadable entry is already treated as absent
  }
}

/** Parses a raw `user` entry; anything that is not a user record (bad JSON, no id) is `null`. */
export function parseStoredUser(raw: string | null): StoredUser | null {
  if (raw === null || EMPTY_MARKERS.has(raw)) return null;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return null;
  }
  return toStoredUser(json);
}

/**
 * Runs once before the first render: removes `user`/`session` entries holding the text 'undefined' or
 * 'null' (spec §2.1), and a `user` entry that is not a valid user record.
 */
export function purgeStaleAuthEntries(storage: KeyValueStorage | null = browserStorage()): void {
  for (const key of [USER_STORAGE_KEY, SESSION_STORAGE_KEY]) {
    const value = safeGet(storage, key);
    if (value !== null && EMPTY_MARKERS.has(value)) safeRemove(storage, key);
  }
  const user = safeGet(storage, USER_STORAGE_KEY);
  if (user !== null && parseStoredUser(user) === null) safeRemove(storage, USER_STORAGE_KEY);
}

/** The stored user, or null; an invalid entry is removed. */
export function readStoredUser(storage: KeyValueStorage | null = browserStorage()): StoredUser | null {
  const raw = safeGet(storage, USER_STORAGE_KEY);
  const user = parseStoredUser(raw);
  if (raw !== null && user === null) safeRemove(storage, USER_STORAGE_KEY);
  return user;
}

export function isAdmin(user: StoredUser | null): boolean {
  return user?.is_admin === true;
}

/** A merchant account, by the stored role (the store dashboard's navigation guard). */
export function isMerchant(user: StoredUser | null): boolean {
  return user?.role === 'merchant';
}

function announceAuthChange(): void {
  if (typeof window !== 'undefined') window.dispatchEvent(new Event(AUTH_CHANGE_EVENT));
}

/** Records a successful login. `user` must be the server's public user record, never a token. */
export function storeLogin(user: StoredUserInput, storage: KeyValueStorage | null = browserStorage()): void {
  const parsed = toStoredUser(user);
  if (parsed === null) throw new TypeError('storeLogin needs a user record with an id');
  storage?.setItem(USER_STORAGE_KEY, JSON.stringify(parsed));
  announceAuthChange();
}

/** Forgets the local login: the stored user and any legacy session entry. */
export function clearLogin(storage: KeyValueStorage | null = browserStorage()): void {
  safeRemove(storage, USER_STORAGE_KEY);
  safeRemove(storage, SESSION_STORAGE_KEY);
  announceAuthChange();
}

function subscribe(onChange: () => void): () => void {
  const onStorage = (event: StorageEvent): void => {
    if (event.key === null || event.key === USER_STORAGE_KEY) onChange();
  };
  window.addEventListener('storage', onStorage);
  window.addEventListener(AUTH_CHANGE_EVENT, onChange);
  return () => {
    window.removeEventListener('storage', onStorage);
    window.removeEventListener(AUTH_CHANGE_EVENT, onChange);
  };
}

const getRawUser = (): string | null => safeGet(browserStorage(), USER_STORAGE_KEY);
const getServerRawUser = (): string | null => null;

/** The stored user, kept current across logins, logouts and other tabs. */
export function useStoredUser(): StoredUser | null {
  const raw = useSyncExternalStore(subscribe, getRawUser, getServerRawUser);
  return useMemo(() => parseStoredUser(raw), [raw]);
}
