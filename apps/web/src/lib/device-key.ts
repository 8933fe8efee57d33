import { toBase64Url } from '@hasta/contracts/devices';
import type { DeviceKind, DevicePublicKey } from '@hasta/contracts/devices';

/**
 * A paired device's own credentials (issue 22): a device token (sent as `X-Hasta-Device`) and an ECDSA P-256
 * key pair made by WebCrypto as NON-extractable, so the private key can sign but never be read, copied or sent
 * anywhere, not even by this page's own scripts. Both are kept in IndexedDB (which stores a CryptoKey as it
 * is), under a slot per role this browser plays: a store terminal, a kiosk, the store owner's Accept Palm tab,
 * a person's own browser. Framework-free: used by the terminal, the kiosk, the palm pages and the dashboard.
 */

/** The WebCrypto algorithm of every device key: ECDSA over P-256, signing SHA-256 digests. */
export const DEVICE_KEY_ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGN_ALGORITHM = { name: 'ECDSA', hash: 'SHA-256' } as const;

/** What the server told us about this device when it was paired (its id, kind and name). */
export interface PairedDevice {
  id: string;
  kind: DeviceKind;
  name: string;
  /** A terminal's store or a kiosk's place, as named when it was paired (shown while offline). */
  storeName?: string | null;
}

/** One paired role of this browser: the server's device, its bearer token and its key pair. */
export interface StoredDevice {
  device: PairedDevice;
  token: string;
  keyPair: CryptoKeyPair;
  /** ISO time of pairing. */
  pairedAt: string;
}

/**
 * Where a role's credentials live. `terminal` and `kiosk` are the device modes (/terminal, /kiosk);
 * `store:<storeId>` the merchant dashboard's Accept Palm tab; `personal:<userId>` a person's own browser
 * (/receive, /palm-register), per person, so another person signing in here does not use it.
 */
export type DeviceSlot = 'terminal' | 'kiosk' | `store:${string}` | `personal:${string}`;

export interface DeviceStore {
  read(slot: DeviceSlot): Promise<StoredDevice | null>;
  write(slot: DeviceSlot, value: StoredDevice): Promise<void>;
  remove(slot: DeviceSlot): Promise<void>;
}

/** A fresh key pair for pairing: the private key cannot be exported (extractable: false). */
export async function generateDeviceKeyPair(): Promise<CryptoKeyPair> {
  const keyPair = await crypto.subtle.generateKey(DEVICE_KEY_ALGORITHM, false, ['sign', 'verify']);
  if (keyPair.privateKey.extractable) throw new Error('A device private key must not be extractable');
  return keyPair;
}

/** The public half as a JWK (EC P-256: kty, crv, x, y), what the server keeps to check signatures. */
export async function publicKeyJwk(keyPair: CryptoKeyPair): Promise<DevicePublicKey> {
  const jwk = await crypto.subtle.exportKey('jwk', keyPair.publicKey);
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || jwk.x === undefined || jwk.y === undefined) {
    throw new Error('A device public key must be an EC P-256 key');
  }
  // Only the public coordinates travel; no usage or extractability flags the server does not need.
  return { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y };
}

/** base64url (with or without padding) back to bytes. */
export function fromBase64Url(text: string): Uint8Array {
  const base64 = text.replaceAll('-', '+').replaceAll('_', '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/**
 * Signs `message` (UTF-8) with the device's private key: ECDSA P-256 / SHA-256, the signature as WebCrypto
 * gives it (raw r||s, IEEE P1363, 64 bytes), base64url.
 */
export async function signMessage(privateKey: CryptoKey, message: string): Promise<string> {
  const signature = await crypto.subtle.sign(SIGN_ALGORITHM, privateKey, new TextEncoder().encode(message));
  return toBase64Url(new Uint8Array(signature));
}

/** Checks a signature made by `signMessage` (tests; the server does its own check). */
export async function verifyMessage(
  publicKey: CryptoKey,
  message: string,
  signature: string,
): Promise<boolean> {
  const bytes = fromBase64Url(signature);
  return crypto.subtle.verify(
    SIGN_ALGORITHM,
    publicKey,
    bytes.slice().buffer,
    new TextEncoder().encode(message),
  );
}

const DATABASE_NAME = 'hasta-devices';
const STORE_NAME = 'devices';
const DATABASE_VERSION = 1;

function promised<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });
}

function openDatabase(factory: IDBFactory): Promise<IDBDatabase> {
  const request = factory.open(DATABASE_NAME, DATABASE_VERSION);
  request.onupgradeneeded = () => {
    if (!request.result.objectStoreNames.contains(STORE_NAME)) request.result.createObjectStore(STORE_NAME);
  };
  return promised(request);
}

function isStoredDevice(value: unknown): value is StoredDevice {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Partial<StoredDevice>;
  return (
    typeof record.token === 'string' &&
    typeof record.pairedAt === 'string' &&
    typeof record.device?.id === 'string' &&
    record.keyPair?.privateKey instanceof CryptoKey &&
    record.keyPair.publicKey instanceof CryptoKey
  );
}

/** The browser's store: one IndexedDB object store, keyed by slot; CryptoKeys are stored as they are. */
export function indexedDbDeviceStore(factory: IDBFactory = indexedDB): DeviceStore {
  const run = async <T>(
    mode: IDBTransactionMode,
    work: (store: IDBObjectStore) => IDBRequest<T>,
  ): Promise<T> => {
    const database = await openDatabase(factory);
    try {
      return await promised(work(database.transaction(STORE_NAME, mode).objectStore(STORE_NAME)));
    } finally {
      database.close();
    }
  };
  return {
    read: async (slot) => {
      const value: unknown = await run('readonly', (store) => store.get(slot));
      return isStoredDevice(value) ? value : null;
    },
    write: async (slot, value) => {
      await run('readwrite', (store) => store.put(value, slot));
    },
    remove: async (slot) => {
      await run('readwrite', (store) => store.delete(slot));
    },
  };
}

/** A store in memory (tests, and a browser where IndexedDB is blocked: the pairing lasts until the page closes). */
export function memoryDeviceStore(): DeviceStore {
  const slots = new Map<DeviceSlot, StoredDevice>();
  return {
    read: (slot) => Promise.resolve(slots.get(slot) ?? null),
    write: (slot, value) => {
      slots.set(slot, value);
      return Promise.resolve();
    },
    remove: (slot) => {
      slots.delete(slot);
      return Promise.resolve();
    },
  };
}

let browserStore: DeviceStore | null = null;

/** This browser's device store: IndexedDB where it exists, else memory. */
export function deviceStore(): DeviceStore {
  browserStore ??= typeof indexedDB === 'undefined' ? memoryDeviceStore() : indexedDbDeviceStore();
  return browserStore;
}
