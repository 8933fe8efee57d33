import { createPrivateKey, createPublicKey, sign as cryptoSign } from 'node:crypto';
import { parseSignerKey, signerKeySeed, type NoteSigner } from '@hasta/tlog/note';

/**
 * The note signer of a signer key text, signing with node's native Ed25519: the same signatures as the pure
 * JS signer (Ed25519 is deterministic) at a fraction of its time and garbage, which matters on the event loop
 * that serves payments — a checkpoint is signed up to four times a second.
 */
export function nativeNoteSigner(signerKey: string): NoteSigner {
  const parsed = parseSignerKey(signerKey);
  const seed = signerKeySeed(signerKey);
  const privateKey = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  const publicKey = createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(-32);
  if (!publicKey.equals(Buffer.from(parsed.publicKey)))
    throw new Error('the signer key does not match its public key');
  return { ...parsed, sign: (message) => new Uint8Array(cryptoSign(null, message, privateKey)) };
}

/** PKCS #8 wrapping of a raw Ed25519 seed (RFC 8410). */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
