/// <reference types="node" />
import { describe, expect, it } from 'vitest';
import { Buffer } from 'node:buffer';
import { compileCoarseScan } from '../scripts/build-wasm';
import type { ProbeTemplates } from './protect';
import { createRng, type Rng } from './random';
import { CASCADE_BLOCK_ENTRIES, PalmGallery, symbolMismatches, type CoarseSurvivors } from './search';
import {
  COARSE_WORDS,
  probeOf as fixtureProbe,
  randomWords,
  searchShape,
  twinGalleries as fixtureGalleries,
  WORDS,
} from './search-test-fixtures';
import { COARSE_SCAN_WASM_BASE64 } from './wasm/coarse-scan.wasm';
import { WasmPalmGallery, kernelSupports } from './wasm-search';

const SHAPE = searchShape(7);
const probeOf = (rng: Rng, coarse: number, fine: number, near?: Uint32Array) =>
  fixtureProbe(rng, SHAPE, coarse, fine, near);
const twinGalleries = (rng: Rng, size: number, initialCapacity = 16) =>
  fixtureGalleries(rng, SHAPE, size, initialCapacity);

function expectSameScores(js: PalmGallery, wasm: WasmPalmGallery, probe: ProbeTemplates): void {
  const expected = new Uint16Array(js.size);
  const actual = new Uint16Array(wasm.size).fill(0xfffe);
  js.scanCoarse(probe, expected);
  wasm.scanCoarse(probe, actual);
  expect(actual).toEqual(expected);
}

describe('WebAssembly coarse scan', () => {
  it('the committed module is the compiled coarse-scan.wat (npm run build:wasm -w @hasta/palm)', async () => {
    const bytes = await compileCoarseScan();
    expect(COARSE_SCAN_WASM_BASE64).toBe(Buffer.from(bytes).toString('base64'));
  });

  it('runs for the engine shape', () => {
    expect(kernelSupports(SHAPE)).toBe(true);
    expect(kernelSupports({ symbolBits: 4, coarseHashes: 256 })).toBe(false);
    // 1,024 coarse symbols: a lead of two chunks, a head of four (the kernel's loops over chunks); 256 and
    // 128: a lead of half a chunk or less.
    expect(kernelSupports({ symbolBits: 2, coarseHashes: 1024 })).toBe(true);
    expect(kernelSupports({ symbolBits: 2, coarseHashes: 256 })).toBe(false);
    expect(kernelSupports({ symbolBits: 2, coarseHashes: 128 })).toBe(false);
    expect(new WasmPalmGallery(SHAPE).kernel).toBeDefined();
  });

  it('gives the JS scores on random galleries of several sizes and alignment counts', () => {
    const rng = createRng(11);
    for (const size of [1, 2, 3, 17, 64, 255, 1000, 4097]) {
      const { js, wasm } = twinGalleries(rng, size);
      for (const alignments of [1, 2, 5, 15]) expectSameScores(js, wasm, probeOf(rng, alignments, 3));
    }
  });

  it('gives the JS scores on extreme words (all equal, all different, single symbols)', () => {
    const js = new PalmGallery(SHAPE, 4);
    const wasm = new WasmPalmGallery(SHAPE, 4);
    const patterns = [0, 0xffffffff, 0x55555555, 0xaaaaaaaa, 0x00000001, 0x80000000, 0x33333333, 0xcccccccc];
    patterns.forEach((p, i) => {
      const words = new Uint32Array(WORDS).fill(p);
      js.addWords(`p-${i}`, words);
      wasm.addWords(`p-${i}`, words);
    });
    for (const p of patterns) {
      const probe = { ...SHAPE, fine: new Uint32Array(WORDS), fineAlignments: 1, coarseAlignments: 2 };
      const coarse = new Uint32Array(2 * COARSE_WORDS).fill(p);
      coarse.fill(~p >>> 0, COARSE_WORDS);
      expectSameScores(js, wasm, { ...probe, coarse });
    }
  });

  it('keeps the JS scores and results through removals, re-adds and growth', () => {
    const rng = createRng(12);
    const { js, wasm } = twinGalleries(rng, 3000);
    const ids = Array.from({ length: 3000 }, (_, i) => `id-${i}`);
    for (let round = 0; round < 4; round++) {
      for (let k = 0; k < 300; k++) {
        const id = ids[rng.nextU32() % ids.length]!;
        expect(wasm.remove(id)).toBe(js.remove(id));
      }
      // The last entry too (no move), and ids that are not there.
      const last = ids.find((id) => js.slotOf(id) === js.size - 1)!;
      expect(wasm.remove(last)).toBe(js.remove(last));
      expect(wasm.remove('absent')).toBe(false);
      for (let k = 0; k < 500; k++) {
        const words = randomWords(rng, WORDS);
        const id = `new-${round}-${k}`;
        js.addWords(id, words);
        wasm.addWords(id, words);
        ids.push(id);
      }
      expect(wasm.size).toBe(js.size);
      expectSameScores(js, wasm, probeOf(rng, 15, 5));
      const target = js.wordsView().slice(WORDS * 100, WORDS * 101);
      const probe = probeOf(rng, 15, 9, target);
      for (const candidates of [2, 64, 256]) {
        expect(wasm.search(probe, { candidates })).toEqual(js.search(probe, { candidates }));
      }
    }
  });

  it("gives every entry's JS lead distance in the bit-sliced lead pass, through growth, removals and re-adds", () => {
    const rng = createRng(14);
    // Past one block (the cascade runs), from a capacity of 16 (the slices are copied on growth); the last
    // group of 128 slots is partly filled.
    const size = 2 * CASCADE_BLOCK_ENTRIES + 300;
    const { js, wasm } = twinGalleries(rng, size);
    const ids = Array.from({ length: size }, (_, i) => `id-${i}`);
    const leads = (probe: ProbeTemplates) => {
      const words = js.wordsView();
      return Uint16Array.from({ length: js.size }, (_, slot) => {
        let best = Infinity;
        for (let a = 0; a < probe.coarseAlignments; a++) {
          const d = symbolMismatches(
            words,
            slot * WORDS,
            probe.coarse,
            a * COARSE_WORDS,
            COARSE_WORDS / 4,
            2,
          );
          best = Math.min(best, d);
        }
        return best;
      });
    };
    const check = () => {
      for (const alignments of [1, 2, 15]) {
        const probe = probeOf(rng, alignments, 3, js.wordsView().slice(WORDS * 5, WORDS * 6));
        // The kernel's stage 1 leaves every slot's lead distance in its score area.
        wasm.stage1(probe, 64);
        expect(wasm.kernel!.scores(0, wasm.size)).toEqual(leads(probe));
        const survivors = (s: CoarseSurvivors) => [s.slots.slice(0, s.count), s.distances.slice(0, s.count)];
        expect(survivors(wasm.stage1(probe, 64))).toEqual(survivors(js.stage1(probe, 64)));
        expect(wasm.search(probe)).toEqual(js.search(probe));
      }
    };
    check();
    // Removals move the last entry into the freed slot (its slices with it) and clear the last slot.
    for (let k = 0; k < 500; k++) {
      const [id] = ids.splice(rng.nextU32() % ids.length, 1);
      expect(wasm.remove(id!)).toBe(js.remove(id!));
    }
    const last = ids.find((id) => js.slotOf(id) === js.size - 1)!;
    expect(wasm.remove(last)).toBe(js.remove(last));
    ids.splice(ids.indexOf(last), 1);
    for (let k = 0; k < 200; k++) {
      const words = randomWords(rng, WORDS);
      js.addWords(`re-${k}`, words);
      wasm.addWords(`re-${k}`, words);
    }
    check();
  });

  it('searches as PalmGallery does, the shortlist ties included', () => {
    const rng = createRng(13);
    for (const size of [10, 65, 700, 5001]) {
      const { js, wasm } = twinGalleries(rng, size);
      for (let r = 0; r < 4; r++) {
        const near = r % 2 === 0 ? js.wordsView().slice(0, WORDS) : undefined;
        const probe = probeOf(rng, 15, 25, near);
        const expected = js.search(probe);
        expect(wasm.search(probe)).toEqual(expected);
        if (near) expect(expected.best?.id).toBe('id-0');
      }
    }
  });
});
