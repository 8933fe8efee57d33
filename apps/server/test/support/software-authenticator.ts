import {
  createECDH,
  createHash,
  createPrivateKey,
  createPublicKey,
  randomBytes,
  sign,
  type KeyObject,
} from 'node:crypto';

/**
 * A passkey authenticator in software (node:crypto only), for tests: an ES256 key, attestation 'none' at
 * registration, and signed assertions, in the JSON shapes @simplewebauthn/browser hands the server. It answers
 * any options it is given, as a real authenticator would for the page's origin; tests use it to play the
 * owner's device, or an attacker's.
 *
 * `fromSeed` makes the same key and credential id from the same seed, in any process: the browser tests
 * load that key into Chromium's virtual authenticator (WebAuthn.addCredential) so that a page and an API
 * client sign in as the same admin. Its signature counter follows the clock (hundredths of a second since
 * 2026), so copies of the device in several processes still count up as the server expects.
 */
export class SoftwareAuthenticator {
  readonly credentialId: Uint8Array;
  readonly privateKey: KeyObject;
  private signCount: number;
  /** `count`: 1, 2, 3...; `clock`: the clock's count (see clockCount); `none`: always 0 (unsupported). */
  private readonly counter: 'count' | 'clock' | 'none';

  constructor(
    readonly origin: string,
    options: { privateKey?: KeyObject; credentialId?: Uint8Array; counter?: 'count' | 'clock' | 'none' } = {},
  ) {
    this.privateKey = options.privateKey ?? createPrivateKeyFromScalar(randomBytes(32));
    this.credentialId = options.credentialId ?? new Uint8Array(randomBytes(16));
    this.counter = options.counter ?? 'count';
    this.signCount = 0;
  }

  /** The same key and credential id for the same seed, without a counter (so processes can share it). */
  static fromSeed(origin: string, seed: string): SoftwareAuthenticator {
    const scalar = createHash('sha256').update(`hasta-test-passkey\0${seed}`).digest();
    const credentialId = new Uint8Array(
      createHash('sha256').update(`credential\0${seed}`).digest().subarray(0, 16),
    );
    return new SoftwareAuthenticator(origin, {
      privateKey: createPrivateKeyFromScalar(scalar),
      credentialId,
      counter: 'clock',
    });
  }

  /** Hundredths of a second since 2026-01-01: a counter every copy of a seeded device agrees on. */
  static clockCount(): number {
    return Math.floor((Date.now() - Date.UTC(2026, 0, 1)) / 10);
  }

  /** The credential id, base64url, as the server stores it. */
  get id(): string {
    return Buffer.from(this.credentialId).toString('base64url');
  }

  /** The private key, PKCS#8 DER in base64 (what WebAuthn.addCredential takes). */
  get pkcs8Base64(): string {
    return (this.privateKey.export({ format: 'der', type: 'pkcs8' }) as Buffer).toString('base64');
  }

  /** Answers navigator.credentials.create(options): attestation 'none'. */
  register(options: RegistrationOptions, overrides: { origin?: string } = {}): RegistrationAnswer {
    const rpId = options.rp.id ?? new URL(this.origin).hostname;
    const clientDataJSON = clientData('webauthn.create', options.challenge, overrides.origin ?? this.origin);
    const publicKey = createPublicKey(this.privateKey).export({ format: 'jwk' });
    const coseKey = cbor(
      new Map<number, unknown>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(publicKey.x!, 'base64url')],
        [-3, Buffer.from(publicKey.y!, 'base64url')],
      ]),
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([FLAG_UP | FLAG_UV | FLAG_AT]),
      counterBytes(this.nextCount()),
      Buffer.alloc(16),
      idLength,
      Buffer.from(this.credentialId),
      coseKey,
    ]);
    const attestationObject = cbor(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: clientDataJSON.toString('base64url'),
        attestationObject: attestationObject.toString('base64url'),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** Answers navigator.credentials.get(options) with this credential (whether or not the options list it). */
  assert(options: AuthenticationOptions, overrides: { origin?: string } = {}): AuthenticationAnswer {
    const rpId = options.rpId ?? new URL(this.origin).hostname;
    const clientDataJSON = clientData('webauthn.get', options.challenge, overrides.origin ?? this.origin);
    const authenticatorData = Buffer.concat([
      sha256(rpId),
      Buffer.from([FLAG_UP | FLAG_UV]),
      counterBytes(this.nextCount()),
    ]);
    const signature = sign(
      'sha256',
      Buffer.concat([authenticatorData, sha256(clientDataJSON)]),
      this.privateKey,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: clientDataJSON.toString('base64url'),
        authenticatorData: authenticatorData.toString('base64url'),
        signature: signature.toString('base64url'),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  private nextCount(): number {
    if (this.counter === 'none') return 0;
    this.signCount =
      this.counter === 'clock'
        ? Math.max(this.signCount + 1, SoftwareAuthenticator.clockCount())
        : this.signCount + 1;
    return this.signCount;
  }
}

export interface RegistrationOptions {
  challenge: string;
  rp: { id?: string; name: string };
}

export interface AuthenticationOptions {
  challenge: string;
  rpId?: string;
}

export interface RegistrationAnswer {
  id: string;
  rawId: string;
  type: 'public-key';
  response: { clientDataJSON: string; attestationObject: string; transports: string[] };
  clientExtensionResults: Record<string, never>;
  authenticatorAttachment: 'platform';
}

export interface AuthenticationAnswer {
  id: string;
  rawId: string;
  type: 'public-key';
  response: { clientDataJSON: string; authenticatorData: string; signature: string };
  clientExtensionResults: Record<string, never>;
  authenticatorAttachment: 'platform';
}

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

function sha256(data: string | Buffer): Buffer {
  return createHash('sha256').update(data).digest();
}

function counterBytes(count: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(count);
  return bytes;
}

function clientData(type: string, challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
}

/** A P-256 private key from a 32-byte scalar (any hash output is below the group order but for ~2^-32). */
function createPrivateKeyFromScalar(scalar: Buffer): KeyObject {
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(scalar);
  const point = ecdh.getPublicKey();
  return createPrivateKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      d: scalar.toString('base64url'),
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
}

/** The little CBOR WebAuthn needs: unsigned and negative integers, byte and text strings, maps. */
function cbor(value: unknown): Buffer {
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) throw new Error('cbor: integers only');
    return value >= 0 ? head(0, value) : head(1, -1 - value);
  }
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  if (value instanceof Map) {
    const parts: Buffer[] = [head(5, value.size)];
    for (const [key, item] of value) parts.push(cbor(key), cbor(item));
    return Buffer.concat(parts);
  }
  throw new Error('cbor: unsupported value');
}

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) {
    const bytes = Buffer.alloc(3);
    bytes[0] = (major << 5) | 25;
    bytes.writeUInt16BE(length, 1);
    return bytes;
  }
  const bytes = Buffer.alloc(5);
  bytes[0] = (major << 5) | 26;
  bytes.writeUInt32BE(length, 1);
  return bytes;
}
