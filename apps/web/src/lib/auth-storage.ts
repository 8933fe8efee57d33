import { useMemo, useSyncExternalStore } from 'react';
import { z } from 'zod';

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

const optionalText = z
  .string()
  .nullish()
  .transform((value) => value ?? null);

const storedUserSchema = z.object({
  id: z.union([z.string().min(1), z.number().int()]),
  email: optionalText,
  phone: optionalText,
  username: optionalText,
  // Coerced to a boolean (spec §3): only an explicit true-ish value grants admin.
  is_admin: z
    .unknown()
    .optional()
    .transform((value) => value === true || value === 'true' || value === 1),
});

export type StoredUser = z.infer<typeof storedUserSchema>;
export type StoredUserInput = z.input<typeof storedUserSchema>;

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
  const result = storedUserSchema.safeParse(json);
  return result.success ? result.data : null;
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

function announceAuthChange(): void {
  if (typeof window !== 'undefined') window.dispatchEvent(new Event(AUTH_CHANGE_EVENT));
}

/** Records a successful login. `user` must be the server's public user record, never a token. */
export function storeLogin(user: StoredUserInput, storage: KeyValueStorage | null = browserStorage()): void {
  const parsed = storedUserSchema.parse(user);
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
