/**
 * RFC 6962 tree hashing on node:crypto's one-shot `hash`, for Node-side bulk work (audits of the whole log).
 * It gives the same hashes as the noble default, about twice as fast; browsers keep using noble.
 */
import { hash } from 'node:crypto';
import type { TreeHasher } from './hashing';

/** A plain Uint8Array view of the digest, so results compare equal to noble's. */
const sha256 = (input: Uint8Array): Uint8Array => {
  const digest = hash('sha256', input, 'buffer');
  return new Uint8Array(digest.buffer, digest.byteOffset, digest.length);
};

// Scratch inputs with the prefix byte in place (see hashing.ts).
const MAX_SCRATCH_ENTRY = 64 * 1024;
let leafInput = new Uint8Array(1024);
const nodeInput = new Uint8Array(65);
nodeInput[0] = 0x01;

export const nodeTreeHasher: TreeHasher = {
  leaf(entry) {
    if (entry.length + 1 > leafInput.length) {
      if (entry.length > MAX_SCRATCH_ENTRY) return sha256(Buffer.concat([Uint8Array.of(0x00), entry]));
      leafInput = new Uint8Array(2 * (entry.length + 1));
    }
    leafInput[0] = 0x00;
    leafInput.set(entry, 1);
    return sha256(leafInput.subarray(0, entry.length + 1));
  },
  node(left, right) {
    if (left.length !== 32 || right.length !== 32)
      throw new RangeError('node children must be 32-byte hashes');
    nodeInput.set(left, 1);
    nodeInput.set(right, 33);
    return sha256(nodeInput);
  },
};
