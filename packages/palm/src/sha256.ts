/**
 * SHA-256 (FIPS 180-4) and HMAC-SHA-256 (RFC 2104) in plain TypeScript: the palm engine runs in the browser
 * and in Node without WebCrypto's async API or Node's crypto module, and needs only these two.
 */

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

const INITIAL = [
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

function rotr(x: number, n: number): number {
  return (x >>> n) | (x << (32 - n));
}

function compress(state: Uint32Array, block: Uint8Array, offset: number, w: Uint32Array): void {
  for (let i = 0; i < 16; i++) {
    const j = offset + 4 * i;
    w[i] = (block[j]! << 24) | (block[j + 1]! << 16) | (block[j + 2]! << 8) | block[j + 3]!;
  }
  for (let i = 16; i < 64; i++) {
    const a = w[i - 15]!;
    const b = w[i - 2]!;
    const s0 = rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3);
    const s1 = rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10);
    w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
  }
  let a = state[0]!;
  let b = state[1]!;
  let c = state[2]!;
  let d = state[3]!;
  let e = state[4]!;
  let f = state[5]!;
  let g = state[6]!;
  let h = state[7]!;
  for (let i = 0; i < 64; i++) {
    const s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
    const choice = (e & f) ^ (~e & g);
    const t1 = (h + s1 + choice + K[i]! + w[i]!) | 0;
    const s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
    const majority = (a & b) ^ (a & c) ^ (b & c);
    const t2 = (s0 + majority) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = (state[0]! + a) | 0;
  state[1] = (state[1]! + b) | 0;
  state[2] = (state[2]! + c) | 0;
  state[3] = (state[3]! + d) | 0;
  state[4] = (state[4]! + e) | 0;
  state[5] = (state[5]! + f) | 0;
  state[6] = (state[6]! + g) | 0;
  state[7] = (state[7]! + h) | 0;
}

/** SHA-256 of the concatenation of the given byte strings. */
export function sha256(...parts: Uint8Array[]): Uint8Array {
  const state = Uint32Array.from(INITIAL);
  const w = new Uint32Array(64);
  const block = new Uint8Array(64);
  let filled = 0;
  let length = 0;
  for (const part of parts) {
    length += part.length;
    let i = 0;
    if (filled > 0) {
      const take = Math.min(64 - filled, part.length);
      block.set(part.subarray(0, take), filled);
      filled += take;
      i = take;
      if (filled === 64) {
        compress(state, block, 0, w);
        filled = 0;
      }
    }
    for (; i + 64 <= part.length; i += 64) compress(state, part, i, w);
    if (i < part.length) {
      block.set(part.subarray(i), 0);
      filled = part.length - i;
    }
  }
  block.fill(0, filled);
  block[filled] = 0x80;
  if (filled >= 56) {
    compress(state, block, 0, w);
    block.fill(0);
  }
  // The message length in bits, big-endian, in the last 8 bytes (lengths beyond 2^53 bits are not supported).
  const bits = length * 8;
  const high = Math.floor(bits / 0x100000000);
  for (let i = 0; i < 4; i++) {
    block[56 + i] = (high >>> (24 - 8 * i)) & 0xff;
    block[60 + i] = (bits >>> (24 - 8 * i)) & 0xff;
  }
  compress(state, block, 0, w);
  const digest = new Uint8Array(32);
  for (let i = 0; i < 8; i++) {
    digest[4 * i] = state[i]! >>> 24;
    digest[4 * i + 1] = (state[i]! >>> 16) & 0xff;
    digest[4 * i + 2] = (state[i]! >>> 8) & 0xff;
    digest[4 * i + 3] = state[i]! & 0xff;
  }
  return digest;
}

/** HMAC-SHA-256 of the concatenated message parts. */
export function hmacSha256(key: Uint8Array, ...message: Uint8Array[]): Uint8Array {
  const block = new Uint8Array(64);
  block.set(key.length > 64 ? sha256(key) : key);
  const inner = block.map((b) => b ^ 0x36);
  const outer = block.map((b) => b ^ 0x5c);
  return sha256(outer, sha256(inner, ...message));
}

export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}
