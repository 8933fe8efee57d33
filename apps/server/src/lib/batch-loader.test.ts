import { describe, expect, it } from 'vitest';
import { createBatchLoader } from './batch-loader';

describe('createBatchLoader', () => {
  it('reads the keys asked for in one turn with one call, each distinct key once', async () => {
    const calls: string[][] = [];
    const load = createBatchLoader(
      async (keys: string[]) => {
        calls.push(keys);
        return new Map(keys.filter((k) => k !== 'missing').map((k) => [k, k.toUpperCase()]));
      },
      { maxBatch: 10 },
    );
    const answers = await Promise.all(['a', 'b', 'a', 'missing'].map((key) => load(key)));
    expect(answers).toEqual(['A', 'B', 'A', undefined]);
    expect(calls).toEqual([['a', 'b', 'missing']]);
    // A later turn reads again: nothing is kept.
    expect(await load('a')).toBe('A');
    expect(calls).toHaveLength(2);
  });

  it('splits a turn into calls of at most maxBatch keys', async () => {
    const calls: number[][] = [];
    const load = createBatchLoader(
      async (keys: number[]) => {
        calls.push(keys);
        return new Map(keys.map((k) => [k, k * 2]));
      },
      { maxBatch: 3 },
    );
    expect(await Promise.all([1, 2, 3, 4, 5, 6, 7].map((k) => load(k)))).toEqual([2, 4, 6, 8, 10, 12, 14]);
    expect(calls).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
  });

  it('rejects every caller of a failed call, and only those', async () => {
    const load = createBatchLoader(
      async (keys: number[]) => {
        if (keys.includes(1)) throw new Error('read failed');
        return new Map(keys.map((k) => [k, k]));
      },
      { maxBatch: 2 },
    );
    const results = await Promise.allSettled([1, 2, 1, 3].map((k) => load(k)));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected', 'fulfilled']);
    expect((results[3] as PromiseFulfilledResult<number>).value).toBe(3);
  });
});
