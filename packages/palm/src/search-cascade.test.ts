/// <reference types="node" />
/**
 * Stage 1's cascade (search.ts `cascadeBlock`): its survivors against a plain statement of the rule, the
 * same survivors from the JS code and the WebAssembly kernel across block boundaries, and the searches
 * built on them.
 */
import { describe, expect, it } from 'vitest';
import type { ProbeTemplates } from './protect';
import { createRng } from './random';
import {
  CASCADE_BLOCK_ENTRIES,
  cascadeKeeps,
  PalmGallery,
  symbolMismatches,
  type CoarseSurvivors,
  type GalleryShape,
} from './search';
import {
  COARSE_WORDS,
  probeOf,
  randomWords,
  searchShape,
  twinGalleries,
  WORDS,
} from './search-test-fixtures';
import { WasmPalmGallery } from './wasm-search';

const SHAPE = searchShape(5);
const HEAD_WORDS = COARSE_WORDS / 2;
const LEAD_WORDS = COARSE_WORDS / 4;

/**
 * The rule, written out: per block, the entries with the `cascadeKeeps(…).lead` smallest leads (ties by slot); of
 * those, the `cascadeKeeps(…).head` smallest heads (ties by slot); then their whole distance.
 */
function expectedSurvivors(
  gallery: PalmGallery,
  probe: ProbeTemplates,
  candidates: number,
  coarseWords = COARSE_WORDS,
): { slots: number[]; distances: number[] } {
  const words = gallery.wordsView();
  // Leads and heads under the first passes' alignments (all, unless the probe says), whole prefixes under all.
  const best = (slot: number, length: number) => {
    let d = Infinity;
    const alignments =
      length === coarseWords ? probe.coarseAlignments : (probe.firstPassAlignments ?? probe.coarseAlignments);
    for (let a = 0; a < alignments; a++) {
      d = Math.min(
        d,
        symbolMismatches(words, slot * gallery.words, probe.coarse, a * coarseWords, length, 2),
      );
    }
    return d;
  };
  const slots: number[] = [];
  for (let from = 0; from < gallery.size; from += CASCADE_BLOCK_ENTRIES) {
    const to = Math.min(gallery.size, from + CASCADE_BLOCK_ENTRIES);
    const keeps = cascadeKeeps(to - from, candidates, gallery.size);
    const keep = keeps.head;
    const block = Array.from({ length: to - from }, (_, k) => ({
      slot: from + k,
      lead: best(from + k, coarseWords / 4),
      head: best(from + k, coarseWords / 2),
    }));
    block.sort((x, y) => x.lead - y.lead || x.slot - y.slot);
    const leads = block.slice(0, Math.max(keeps.lead, keep));
    leads.sort((x, y) => x.head - y.head || x.slot - y.slot);
    const kept = leads.slice(0, keep).map((e) => e.slot);
    slots.push(...kept.sort((x, y) => x - y));
  }
  return { slots, distances: slots.map((slot) => best(slot, coarseWords)) };
}

function plain(s: CoarseSurvivors): { slots: number[]; distances: number[] } {
  return { slots: [...s.slots.subarray(0, s.count)], distances: [...s.distances.subarray(0, s.count)] };
}

describe("stage 1's cascade", () => {
  it('keeps, per block, the best leads, of those the best heads, and gives their whole coarse distance (JS and WebAssembly)', () => {
    const rng = createRng(31);
    // One short block; exactly two blocks; two blocks and a short one.
    for (const size of [700, 2 * CASCADE_BLOCK_ENTRIES, 2 * CASCADE_BLOCK_ENTRIES + 1001]) {
      const { js, wasm } = twinGalleries(rng, SHAPE, size, size);
      for (const candidates of [2, 64, 256]) {
        const probe = probeOf(rng, SHAPE, 15, 5, js.wordsView().slice(WORDS, 2 * WORDS));
        const expected = expectedSurvivors(js, probe, candidates);
        expect(plain(js.stage1(probe, candidates))).toEqual(expected);
        expect(plain(wasm.stage1(probe, candidates))).toEqual(expected);
        expect(expected.slots).toContain(1);
        // A gallery of one block keeps every entry.
        if (size <= CASCADE_BLOCK_ENTRIES) expect(expected.slots).toHaveLength(size);
      }
    }
  });

  it("compares leads and heads under the probe's first-pass alignments only, whole prefixes under all (JS and WebAssembly)", () => {
    const rng = createRng(36);
    const size = 2 * CASCADE_BLOCK_ENTRIES + 501;
    const { js, wasm } = twinGalleries(rng, SHAPE, size, size);
    const near = js.wordsView().slice(WORDS, 2 * WORDS);
    let keptByFirst = 0;
    for (let r = 0; r < 6; r++) {
      // 15 alignments of the first passes and 6 more; entry 1's near copy at one of the first or the extra.
      const base = probeOf(rng, SHAPE, 21, 5);
      const coarse = base.coarse.slice();
      const at = r % 2 === 0 ? rng.nextU32() % 15 : 15 + (rng.nextU32() % 6);
      coarse.set(near.subarray(0, COARSE_WORDS), at * COARSE_WORDS);
      const probe: ProbeTemplates = { ...base, coarse, firstPassAlignments: 15 };
      const expected = expectedSurvivors(js, probe, 64);
      expect(plain(js.stage1(probe, 64))).toEqual(expected);
      expect(plain(wasm.stage1(probe, 64))).toEqual(expected);
      if (at < 15) {
        // Found by the first passes, at its whole distance under the copy: 0.
        expect(expected.slots).toContain(1);
        expect(expected.distances[expected.slots.indexOf(1)]).toBe(0);
        keptByFirst++;
      } else {
        // The first passes see only random alignments: entry 1 is not kept for its copy, and had it been
        // kept its whole distance would be 0.
        const k = expected.slots.indexOf(1);
        expect(k < 0 || expected.distances[k] === 0).toBe(true);
      }
      // Without the first-pass limit, the copy at any alignment keeps entry 1.
      const all: ProbeTemplates = { ...base, coarse };
      expect(plain(wasm.stage1(all, 64)).slots).toContain(1);
    }
    expect(keptByFirst).toBe(3);
  });

  it('breaks ties at both cuts by slot, on a gallery of equal heads', () => {
    const rng = createRng(32);
    const js = new PalmGallery(SHAPE, 16);
    const wasm = new WasmPalmGallery(SHAPE, 16);
    const head = randomWords(rng, HEAD_WORDS);
    const size = CASCADE_BLOCK_ENTRIES + 3000;
    for (let i = 0; i < size; i++) {
      const words = randomWords(rng, WORDS);
      words.set(head);
      js.addWords(`id-${i}`, words);
      wasm.addWords(`id-${i}`, words);
    }
    const probe = probeOf(rng, SHAPE, 3, 2);
    const survivors = plain(js.stage1(probe, 64));
    const first = (from: number, length: number) =>
      Array.from({ length: cascadeKeeps(length, 64, size).head }, (_, i) => from + i);
    expect(survivors.slots).toEqual([
      ...first(0, CASCADE_BLOCK_ENTRIES),
      ...first(CASCADE_BLOCK_ENTRIES, 3000),
    ]);
    expect(plain(wasm.stage1(probe, 64))).toEqual(survivors);
    expect(wasm.search(probe)).toEqual(js.search(probe));
  });

  it('puts on the shortlist an entry that only its whole prefix ranks first, and drops one whose head or lead is out', () => {
    const rng = createRng(33);
    const size = CASCADE_BLOCK_ENTRIES + 5000;
    const { js, wasm } = twinGalleries(rng, SHAPE, size, size);
    const probe = probeOf(rng, SHAPE, 4, 3);
    const alignment = probe.coarse.subarray(2 * COARSE_WORDS, 3 * COARSE_WORDS);
    // 'tail-match': a head good enough to survive (a quarter of its words inverted), a tail equal to the
    // probe's: the best whole distance by far. 'head-out': a tail equal to the probe's too, but a head
    // unlike every alignment's (one inverted, the others random): outside the block's best 1/32. 'lead-out':
    // all but the lead equal to the probe's, the lead inverted: the best head and whole distance of the block
    // by far, but a lead outside the block's best 1/4, so its head is never compared.
    const tailMatch = alignment.slice();
    for (let w = 0; w < HEAD_WORDS; w += 4) tailMatch[w] = ~tailMatch[w]! >>> 0;
    const headOut = alignment.slice();
    for (let w = 0; w < HEAD_WORDS; w++) headOut[w] = ~alignment[w]! >>> 0;
    const leadOut = alignment.slice();
    for (let w = 0; w < LEAD_WORDS; w++) leadOut[w] = ~alignment[w]! >>> 0;
    for (const [id, coarse] of [
      ['tail-match', tailMatch],
      ['head-out', headOut],
      ['lead-out', leadOut],
    ] as const) {
      const words = randomWords(rng, WORDS);
      words.set(coarse);
      js.addWords(id, words);
      wasm.addWords(id, words);
    }
    const tailSlot = js.slotOf('tail-match')!;
    const outSlot = js.slotOf('head-out')!;
    const survivors = plain(js.stage1(probe, 64));
    expect(survivors).toEqual(expectedSurvivors(js, probe, 64));
    expect(plain(wasm.stage1(probe, 64))).toEqual(survivors);
    expect(survivors.slots).toContain(tailSlot);
    expect(survivors.slots).not.toContain(outSlot);
    expect(survivors.slots).not.toContain(js.slotOf('lead-out'));
    const k = survivors.slots.indexOf(tailSlot);
    expect(Math.min(...survivors.distances)).toBe(survivors.distances[k]);
    // Stage 2 sees it: the full templates are random, so it is among the candidates, not necessarily first.
    const result = wasm.search(probe, { candidates: 64 });
    expect(result).toEqual(js.search(probe, { candidates: 64 }));
    expect(result.candidates).toBeGreaterThanOrEqual(64);
  });

  it('gives the same pairs for survivor lists of any length (the kernel computes them in batches of 32)', () => {
    const rng = createRng(36);
    // A full block (4,096 leads, 512 heads) and a block of 100, which keeps max(25, candidates) leads and
    // max(4, candidates) heads: fewer than a batch, one batch, one more, several, and all of it (odd and even
    // counts: the kernel computes the heads two at a time).
    const { js, wasm } = twinGalleries(rng, SHAPE, CASCADE_BLOCK_ENTRIES + 100, CASCADE_BLOCK_ENTRIES + 100);
    for (const candidates of [2, 31, 32, 33, 64, 65, 99, 100]) {
      const probe = probeOf(rng, SHAPE, 15, 5, js.wordsView().slice(WORDS * 16_400, WORDS * 16_401));
      const expected = expectedSurvivors(js, probe, candidates);
      expect(expected.slots).toHaveLength(
        CASCADE_BLOCK_ENTRIES / 32 + Math.min(100, Math.max(4, candidates)),
      );
      expect(plain(js.stage1(probe, candidates))).toEqual(expected);
      expect(plain(wasm.stage1(probe, candidates))).toEqual(expected);
    }
  });

  it('keeps every entry of a gallery of at most one block, also one whose head is unlike the probe', () => {
    const rng = createRng(37);
    for (const size of [100, 1000, CASCADE_BLOCK_ENTRIES - 2]) {
      const { js, wasm } = twinGalleries(rng, SHAPE, size, size);
      const probe = probeOf(rng, SHAPE, 15, 5);
      // The probe's full alignment 1 and coarse alignment 3, but a head no closer than a random entry's: a
      // cascade would most likely drop it at 1,000 and 16,382 entries (keeping 64 and 512 heads); here it is
      // the best match.
      const words = randomWords(rng, WORDS);
      words.set(probe.fine.subarray(WORDS, 2 * WORDS));
      words.set(probe.coarse.subarray(3 * COARSE_WORDS, 4 * COARSE_WORDS));
      for (let w = 0; w < HEAD_WORDS; w++) words[w] = ~probe.coarse[3 * COARSE_WORDS + w]! >>> 0;
      js.addWords('head-out', words);
      wasm.addWords('head-out', words);
      const survivors = plain(js.stage1(probe, 64));
      expect(survivors.slots).toEqual(Array.from({ length: size + 1 }, (_, i) => i));
      expect(survivors).toEqual(expectedSurvivors(js, probe, 64));
      expect(plain(wasm.stage1(probe, 64))).toEqual(survivors);
      const result = wasm.search(probe, { candidates: 64 });
      expect(result).toEqual(js.search(probe, { candidates: 64 }));
      expect(result.best?.id).toBe('head-out');
    }
  });

  it('runs stage 2 in the kernel over shortlists longer than one batch, as the JS code', () => {
    const rng = createRng(35);
    const { js, wasm } = twinGalleries(rng, SHAPE, 3000, 3000);
    for (const candidates of [600, 2999]) {
      const target = (17 * candidates) % 3000;
      const probe = probeOf(rng, SHAPE, 15, 125, js.wordsView().slice(WORDS * target, WORDS * (target + 1)));
      const result = wasm.search(probe, { candidates });
      expect(result).toEqual(js.search(probe, { candidates }));
      expect(result.candidates).toBeGreaterThan(512);
      expect(result.best?.id).toBe(`id-${target}`);
    }
  });

  it('runs the loops over chunks for other coarse sizes (1,024 symbols: a lead of two chunks, a head of four)', () => {
    const rng = createRng(34);
    const shape: GalleryShape = { ...SHAPE, coarseHashes: 1024 };
    const js = new PalmGallery(shape, 16);
    const wasm = new WasmPalmGallery(shape, 16);
    expect(wasm.kernel).toBeDefined();
    for (let i = 0; i < CASCADE_BLOCK_ENTRIES + 500; i++) {
      const words = randomWords(rng, WORDS);
      js.addWords(`id-${i}`, words);
      wasm.addWords(`id-${i}`, words);
    }
    for (let r = 0; r < 3; r++) {
      const target = js.wordsView().slice(WORDS * (r * 7000), WORDS * (r * 7000 + 1));
      const fine = randomWords(rng, 5 * WORDS);
      fine.set(target, 2 * WORDS);
      const coarse = randomWords(rng, 15 * WORDS);
      coarse.set(target, WORDS * r);
      const probe: ProbeTemplates = { ...shape, fine, fineAlignments: 5, coarse, coarseAlignments: 15 };
      const expected = expectedSurvivors(js, probe, 64, WORDS);
      expect(plain(js.stage1(probe, 64))).toEqual(expected);
      expect(plain(wasm.stage1(probe, 64))).toEqual(expected);
      const scores = new Uint16Array(js.size);
      const kernelScores = new Uint16Array(js.size);
      js.scanCoarse(probe, scores);
      wasm.scanCoarse(probe, kernelScores);
      expect(kernelScores).toEqual(scores);
      const result = wasm.search(probe);
      expect(result).toEqual(js.search(probe));
      expect(result.best?.id).toBe(`id-${r * 7000}`);
    }
  });
});
