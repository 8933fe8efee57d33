/// <reference types="node" />
import { afterAll, describe, expect, it } from 'vitest';
import { PalmSearchPool } from './parallel-search';
import { createRng, type Rng } from './random';
import { CASCADE_BLOCK_ENTRIES, type SearchResult } from './search';
import {
  probeOf as fixtureProbe,
  randomWords,
  searchShape,
  twinGalleries,
  WORDS,
} from './search-test-fixtures';
import { WasmPalmGallery } from './wasm-search';

const SHAPE = searchShape(9);
/** 15 coarse and 25 full alignments, random or one of each near `near`. */
const probeOf = (rng: Rng, near?: Uint32Array) => fixtureProbe(rng, SHAPE, 15, 25, near);

function plain({ best, second, gallerySize, candidates }: SearchResult): SearchResult {
  return { best, second, gallerySize, candidates };
}

const pools: PalmSearchPool[] = [];
function pool(options: {
  threads?: number;
  parallelFrom?: number;
  callerTakesBlocks?: boolean;
}): PalmSearchPool {
  const p = new PalmSearchPool(options);
  pools.push(p);
  return p;
}
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
});

describe('parallel 1:N search', () => {
  it('finds what PalmGallery.search finds, with stage 1 in blocks over two workers', async () => {
    const rng = createRng(21);
    const workers = pool({ threads: 2, parallelFrom: 1, callerTakesBlocks: false });
    // One short block; exactly two blocks; two and a short one (the workers take blocks as they come).
    for (const size of [1001, 2 * CASCADE_BLOCK_ENTRIES, 2 * CASCADE_BLOCK_ENTRIES + 6007]) {
      const { js, wasm } = twinGalleries(rng, SHAPE, size);
      for (let r = 0; r < 4; r++) {
        const target = r % 2 === 0 ? rng.nextU32() % size : undefined;
        const probe = probeOf(
          rng,
          target === undefined ? undefined : js.wordsView().slice(target * WORDS, (target + 1) * WORDS),
        );
        for (const candidates of [64, 256]) {
          const result = await workers.search(wasm, probe, { candidates });
          // A silent fall-back to this thread would say so here.
          expect(result.stage1).toBe('workers');
          expect(result.shards).toBe(Math.ceil(size / CASCADE_BLOCK_ENTRIES));
          expect(workers.lastShardCounts).toHaveLength(2);
          expect(workers.lastShardCounts.reduce((a, b) => a + b, 0)).toBe(result.shards);
          // The timeline: each worker's blocks, and the wake-up here before the result (each thread's clock
          // against itself only: two threads' origins may differ by a little).
          const timeline = workers.lastTimeline!;
          expect(timeline.workers).toHaveLength(2);
          for (const { from, to } of timeline.workers) expect(from).toBeLessThanOrEqual(to);
          expect(timeline.resumed).toBeGreaterThan(0);
          expect(timeline.resumed).toBeLessThanOrEqual(timeline.done);
          const expected = js.search(probe, { candidates });
          expect(plain(result)).toEqual(expected);
          if (target !== undefined) expect(result.best?.id).toBe(`id-${target}`);
        }
      }
    }
    expect(workers.failure).toBeUndefined();
  });

  it('finds the same with the calling thread taking blocks beside the workers (not the default)', async () => {
    const rng = createRng(24);
    expect(pool({ threads: 2, parallelFrom: 1 }).callerTakesBlocks).toBe(false);
    const workers = pool({ threads: 2, parallelFrom: 1, callerTakesBlocks: true });
    expect(workers.callerTakesBlocks).toBe(true);
    const size = 3 * CASCADE_BLOCK_ENTRIES + 101;
    const { js, wasm } = twinGalleries(rng, SHAPE, size);
    let own = 0;
    for (let r = 0; r < 6; r++) {
      const target = rng.nextU32() % size;
      // The first passes under the first 10 of the 15 coarse alignments (every worker told so).
      const probe = {
        ...probeOf(rng, js.wordsView().slice(target * WORDS, (target + 1) * WORDS)),
        firstPassAlignments: 10,
      };
      const result = await workers.search(wasm, probe, { candidates: 256 });
      expect(result.stage1).toBe('workers');
      // Two workers' blocks, then this thread's: every block once.
      expect(workers.lastShardCounts).toHaveLength(3);
      expect(workers.lastShardCounts.reduce((a, b) => a + b, 0)).toBe(result.shards);
      own += workers.lastShardCounts[2]!;
      expect(plain(result)).toEqual(js.search(probe, { candidates: 256 }));
    }
    // The calling thread starts on the blocks before a worker can have woken up.
    expect(own).toBeGreaterThan(0);
    expect(workers.failure).toBeUndefined();
  });

  it('follows adds (through a new shared memory), removes, and concurrent searches', async () => {
    const rng = createRng(22);
    const workers = pool({ threads: 2, parallelFrom: 1 });
    const { js, wasm, add, added } = twinGalleries(rng, SHAPE, 500);
    const generation = wasm.kernel!.generation;
    for (let round = 0; round < 3; round++) {
      const probes = Array.from({ length: 4 }, () => probeOf(rng, js.wordsView().slice(0, WORDS)));
      const results = await Promise.all(probes.map((probe) => workers.search(wasm, probe)));
      results.forEach((result, i) => {
        expect(result.stage1).toBe('workers');
        expect(plain(result)).toEqual(js.search(probes[i]!));
      });
      add(700);
      for (let k = 0; k < 200; k++) {
        const id = `id-${rng.nextU32() % added()}`;
        expect(wasm.remove(id)).toBe(js.remove(id));
      }
    }
    expect(wasm.kernel!.generation).toBeGreaterThan(generation);
    // Changed right after the call: the search sees the entries as they are when it runs.
    const probe = probeOf(rng, js.wordsView().slice(WORDS, 2 * WORDS));
    const pending = workers.search(wasm, probe);
    add(1);
    js.remove('id-3');
    wasm.remove('id-3');
    const raced = await pending;
    expect(plain(raced)).toEqual(js.search(probe));
  });

  it('searches small galleries on the calling thread, and after close', async () => {
    const rng = createRng(23);
    const workers = pool({ threads: 2, parallelFrom: 1000 });
    const wasm = new WasmPalmGallery(SHAPE, 16);
    for (let i = 0; i < 999; i++) wasm.addWords(`id-${i}`, randomWords(rng, WORDS));
    expect((await workers.search(wasm, probeOf(rng))).stage1).toBe('wasm');
    wasm.addWords('id-999', randomWords(rng, WORDS));
    expect((await workers.search(wasm, probeOf(rng))).stage1).toBe('workers');
    const tiny = new WasmPalmGallery(SHAPE, 16);
    tiny.addWords('only', randomWords(rng, WORDS));
    expect((await workers.search(tiny, probeOf(rng))).stage1).toBe('none');
    await workers.close();
    const probe = probeOf(rng);
    const after = await workers.search(wasm, probe);
    expect(after.stage1).toBe('wasm');
    expect(plain(after)).toEqual(wasm.search(probe));
  });
});
