/**
 * npm run bench:palm-scale — the figures of decision 036 (India's scale, 10^8 enrolled palms), measured here
 * and computed from packages/palm's own constants, not guessed:
 *
 * - memory per entry: the gallery's template words, the WebAssembly kernel's copy of the coarse prefixes and
 *   the JS heap the ids and their map take, measured on a gallery of SIZES' largest N;
 * - search cost per entry: the slope of WasmPalmGallery.search's p50 (one thread, the server's shortlist
 *   shortlistFor(N)) between the two sizes, so the fixed cost of stage 2 drops out;
 * - FPIR: from DEFAULT_IMPOSTOR_MODEL and decisionPolicy (FPIR ≈ N × FMR(threshold)), at the threshold the
 *   server would set for each N (target FPIR 1e-3) and at today's threshold for 10^6 kept as N grows, and
 *   per narrowing of the search (the payer's phone digits, a store's region).
 *
 * Random template words from the package's seeded generator (as the speed table of `npm run bench:palm`);
 * the probe is a real protected probe of a synthetic palm. Small sizes: a few seconds.
 *   SIZES=20000,160000 RUNS=30 npm run bench:palm-scale
 */
import { extractFeatures } from '../packages/palm/src/features';
import { TemplateProtector } from '../packages/palm/src/protect';
import { createRng } from '../packages/palm/src/random';
import {
  DEFAULT_IMPOSTOR_MODEL,
  decisionPolicy,
  falseMatchRate,
  MAX_GALLERY_SIZE,
  shortlistFor,
} from '../packages/palm/src/search';
import { syntheticPalm } from '../packages/palm/src/synthetic';
import { WasmPalmGallery } from '../packages/palm/src/wasm-search';

const SIZES = (process.env.SIZES ?? '20000,160000').split(',').map(Number) as [number, number];
const RUNS = Number(process.env.RUNS ?? 30);
const INDIA = 1e8;
const TARGET_FPIR = 1e-3;

const protector = new TemplateProtector(new TextEncoder().encode('bench-palm-scale-key-0123456789abcdef'));
const features = (identity: number, sample: number) =>
  extractFeatures(syntheticPalm({ seed: 36, identity, sample, setting: 'easy' }), 128);
const shapeTemplate = protector.enrol(features(0, 0));
const probes = Array.from({ length: 8 }, (_, k) => protector.probe(features(k + 1, 1)));
const rng = createRng(36);

function quantile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

const measured: { n: number; p50_ms: number; bytesPerEntry: number; heapPerEntry: number }[] = [];
for (const n of SIZES) {
  const heapBefore = process.memoryUsage().heapUsed;
  const gallery = new WasmPalmGallery(shapeTemplate, n);
  const words = new Uint32Array(gallery.words);
  for (let i = 0; i < n; i++) {
    for (let w = 0; w < words.length; w++) words[w] = rng.nextU32();
    gallery.addWords(`palm-${i.toString().padStart(9, '0')}`, words);
  }
  const heapPerEntry = (process.memoryUsage().heapUsed - heapBefore) / n;
  const kernelBytes = gallery.kernel?.memory.buffer.byteLength ?? 0;
  const bytesPerEntry = (gallery.wordsView().byteLength + kernelBytes) / n;
  const candidates = shortlistFor(n);
  for (let r = 0; r < 3; r++) gallery.search(probes[r % probes.length]!, { candidates });
  const times: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    gallery.search(probes[r % probes.length]!, { candidates });
    times.push(performance.now() - t0);
  }
  measured.push({ n, p50_ms: quantile(times, 0.5), bytesPerEntry, heapPerEntry });
  console.log(
    `N = ${n.toLocaleString('en-US')}: search p50 ${quantile(times, 0.5).toFixed(2)} ms, p95 ${quantile(times, 0.95).toFixed(2)} ms ` +
      `(one thread, shortlist ${candidates}); template ${gallery.words * 4} B + kernel copy ` +
      `${(kernelBytes / n).toFixed(0)} B = ${bytesPerEntry.toFixed(0)} B per entry in typed arrays, ` +
      `+ ${heapPerEntry.toFixed(0)} B of JS heap (the id and its map slot)`,
  );
}
const [small, large] = measured as [(typeof measured)[0], (typeof measured)[0]];
const perEntry_ns = ((large.p50_ms - small.p50_ms) / (large.n - small.n)) * 1e6;
const perEntryBytes = large.bytesPerEntry + large.heapPerEntry;
console.log(
  `search cost per entry (slope between the two sizes): ${perEntry_ns.toFixed(2)} ns on one thread ` +
    `(${(1e9 / perEntry_ns / 1e6).toFixed(0)} M entries/s)`,
);
console.log('');
console.log(`At N = 10^8:`);
console.log(
  `  memory: ${((INDIA * large.bytesPerEntry) / 1e9).toFixed(1)} GB in typed arrays + ` +
    `${((INDIA * large.heapPerEntry) / 1e9).toFixed(1)} GB of ids = ${((INDIA * perEntryBytes) / 1e9).toFixed(1)} GB; ` +
    `one process holds at most MAX_GALLERY_SIZE = ${MAX_GALLERY_SIZE.toLocaleString('en-US')} entries, so at least ` +
    `${Math.ceil(INDIA / MAX_GALLERY_SIZE)} shards`,
);
const oneThread_s = (INDIA * perEntry_ns) / 1e9;
console.log(
  `  one search over all of it: ${oneThread_s.toFixed(2)} s on one thread; ` +
    [8, 64, 256]
      .map((cores) => `${((oneThread_s / cores) * 1000).toFixed(0)} ms on ${cores} cores`)
      .join(', ') +
    ` (stage 1 only scales; the shortlist's stage 2 and the gather are added per search)`,
);
const model = DEFAULT_IMPOSTOR_MODEL;
const threshold = (n: number) => decisionPolicy({ gallerySize: n, targetFpir: TARGET_FPIR }).threshold;
const today = threshold(1e6);
console.log(
  `  impostor model: location ${model.location}, scale ${model.scale} (fitted between FMR 1e-5 and 1e-1)`,
);
for (const n of [1e6, 1e8]) {
  console.log(
    `  N = ${n.toExponential(0)}: the threshold for FPIR ${TARGET_FPIR} is ${threshold(n).toFixed(4)} ` +
      `(FMR ${(TARGET_FPIR / n).toExponential(0)}, ${((model.location - threshold(n)) / model.scale).toFixed(2)} ` +
      `scales below the impostors' mean)`,
  );
}
console.log(
  `  today's threshold for N = 10^6 (${today.toFixed(4)}) kept at N = 10^8: FPIR ≈ N × FMR = ` +
    `${(INDIA * falseMatchRate(today)).toFixed(3)} (a false match on that share of searches by someone not enrolled)`,
);
const narrowings: [string, number][] = [
  ['no narrowing', 1],
  ["the payer's phone number's last 2 digits", 100],
  ["the payer's phone number's last 3 digits", 1_000],
  ["the payer's phone number's last 4 digits", 10_000],
  ["a store's region (one of ~750 districts, even split)", 750],
  ["a district and the phone's last 2 digits", 75_000],
];
console.log(
  `  narrowing the search (N searched = 10^8 / buckets, threshold for FPIR ${TARGET_FPIR} at that N):`,
);
for (const [name, buckets] of narrowings) {
  const n = INDIA / buckets;
  console.log(
    `    ${name.padEnd(52)} N = ${n.toExponential(2).padStart(9)}  threshold ${threshold(n).toFixed(4)}  ` +
      `FPIR at today's 10^6 threshold ${Math.min(1, n * falseMatchRate(today)).toExponential(2)}  ` +
      `search ${((n * perEntry_ns) / 1e6).toFixed(1)} ms on one thread`,
  );
}
