import { describe, expect, it } from 'vitest';
import { DEFAULT_JITTER, TtlCache } from './ttl-cache';

describe('TtlCache', () => {
  it('answers until its entry expires, never past the time to live', () => {
    const cache = new TtlCache<string>(1_000, 10, { random: () => 0 });
    cache.set('a', 'A', 0);
    expect(cache.get('a', 999)).toBe('A');
    expect(cache.get('a', 1_000)).toBeUndefined();
    // An expired entry is gone, not only hidden.
    expect(cache.get('a', 0)).toBeUndefined();
  });

  it('spreads the expiries of entries stored together over the jitter', () => {
    let draw = 0;
    const draws = [0, 0.5, 0.999];
    const cache = new TtlCache<number>(1_000, 10, { random: () => draws[draw++]! });
    for (const key of ['a', 'b', 'c']) cache.set(key, 1, 0);
    // With jitter 0.5: a answers for 1,000 ms, b for 750, c for just over 500.
    expect(['a', 'b', 'c'].map((key) => cache.get(key, 600))).toEqual([1, 1, undefined]);
    expect(['a', 'b'].map((key) => cache.get(key, 800))).toEqual([1, undefined]);
    expect(cache.get('a', 999)).toBe(1);
    expect(DEFAULT_JITTER).toBe(0.5);
  });

  it('with the real random source, expires entries stored together between half the time to live and all of it', () => {
    const cache = new TtlCache<number>(1_000, 1_000);
    for (let i = 0; i < 500; i += 1) cache.set(String(i), i, 0);
    const alive = (at: number) =>
      Array.from({ length: 500 }, (_, i) => cache.get(String(i), at)).filter((v) => v !== undefined).length;
    expect(alive(499)).toBe(500);
    const midway = alive(750);
    expect(midway).toBeGreaterThan(0);
    expect(midway).toBeLessThan(500);
    expect(alive(1_000)).toBe(0);
  });

  it('is cleared whole when full, and refuses a jitter outside [0, 1)', () => {
    const cache = new TtlCache<number>(1_000, 2, { jitter: 0 });
    cache.set('a', 1, 0);
    cache.set('b', 2, 0);
    cache.set('c', 3, 0);
    expect([cache.get('a', 1), cache.get('b', 1), cache.get('c', 1)]).toEqual([undefined, undefined, 3]);
    expect(() => new TtlCache(1_000, 2, { jitter: 1 })).toThrow(RangeError);
    expect(() => new TtlCache(1_000, 2, { jitter: -0.1 })).toThrow(RangeError);
  });
});
