/**
 * A small seeded generator (sfc32, from PractRand) for the synthetic palms and the benchmark: the same seed
 * gives the same palms on every machine and in the browser, which Math.random cannot. Not for secrets: the
 * template-protection keys are expanded with HMAC-SHA-256 instead (protect.ts).
 */

export interface Rng {
  /** Uniform in [0, 1), 32 bits of resolution. */
  next(): number;
  /** A raw 32-bit unsigned integer. */
  nextU32(): number;
  /** Uniform in [low, high). */
  range(low: number, high: number): number;
  /** Uniform integer in [0, count). */
  int(count: number): number;
  /** Standard normal (Box–Muller; one value per call, the pair's twin is kept for the next call). */
  normal(): number;
  /** true with the given probability. */
  chance(probability: number): boolean;
}

/** Mixes any number of 32-bit integers into one seed (murmur3's finaliser after each word). */
export function mixSeed(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const part of parts) {
    h ^= part >>> 0;
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

export function createRng(seed: number): Rng {
  let a = mixSeed(seed, 1);
  let b = mixSeed(seed, 2);
  let c = mixSeed(seed, 3);
  let d = 1;
  const nextU32 = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  // sfc32's first outputs still carry the seed's structure; 12 rounds wash it out, as its author advises.
  for (let i = 0; i < 12; i++) nextU32();
  let spareNormal: number | undefined;
  const next = (): number => nextU32() / 4294967296;
  return {
    next,
    nextU32,
    range: (low, high) => low + (high - low) * next(),
    int: (count) => Math.floor(next() * count),
    chance: (probability) => next() < probability,
    normal: () => {
      if (spareNormal !== undefined) {
        const value = spareNormal;
        spareNormal = undefined;
        return value;
      }
      let u = next();
      while (u <= 0) u = next();
      const radius = Math.sqrt(-2 * Math.log(u));
      const angle = 2 * Math.PI * next();
      spareNormal = radius * Math.sin(angle);
      return radius * Math.cos(angle);
    },
  };
}
