/**
 * Galleries and probes of random templates in the engine's shape, for the search tests (the JS, WebAssembly
 * and worker paths are checked against each other on them).
 */
import type { ProbeTemplates } from './protect';
import type { Rng } from './random';
import { PalmGallery, type GalleryShape } from './search';
import { WasmPalmGallery } from './wasm-search';

export function searchShape(keyByte: number): GalleryShape {
  return { keyId: new Uint8Array(32).fill(keyByte), symbolBits: 2, hashes: 1024, coarseHashes: 512 };
}
/** Words of a full template (1024 2-bit symbols) and of its coarse prefix (512). */
export const WORDS = 64;
export const COARSE_WORDS = 32;

export function randomWords(rng: Rng, length: number): Uint32Array {
  return Uint32Array.from({ length }, () => rng.nextU32());
}

/** A probe whose alignments are random, or near-copies of `near` (a few symbols changed). */
export function probeOf(
  rng: Rng,
  shape: GalleryShape,
  coarseAlignments: number,
  fineAlignments: number,
  near?: Uint32Array,
): ProbeTemplates {
  const fine = randomWords(rng, fineAlignments * WORDS);
  const coarse = randomWords(rng, coarseAlignments * COARSE_WORDS);
  if (near) {
    const a = rng.nextU32() % fineAlignments;
    fine.set(near, a * WORDS);
    for (let k = 0; k < 40; k++) fine[a * WORDS + (rng.nextU32() % WORDS)]! ^= 1 << (rng.nextU32() % 32);
    const c = rng.nextU32() % coarseAlignments;
    coarse.set(near.subarray(0, COARSE_WORDS), c * COARSE_WORDS);
    for (let k = 0; k < 20; k++)
      coarse[c * COARSE_WORDS + (rng.nextU32() % COARSE_WORDS)]! ^= 3 << (2 * (rng.nextU32() % 16));
  }
  return { ...shape, fine, fineAlignments, coarse, coarseAlignments };
}

/** The same random entries in a JS gallery and a WebAssembly one; `add` puts more in both. */
export function twinGalleries(rng: Rng, shape: GalleryShape, size: number, initialCapacity = 16) {
  const js = new PalmGallery(shape, initialCapacity);
  const wasm = new WasmPalmGallery(shape, initialCapacity);
  let next = 0;
  const add = (count: number) => {
    for (let k = 0; k < count; k++) {
      const words = randomWords(rng, WORDS);
      js.addWords(`id-${next}`, words);
      wasm.addWords(`id-${next++}`, words);
    }
  };
  add(size);
  return { js, wasm, add, added: () => next };
}
