/**
 * npm run bench:palm-shards — the palm gallery partitioned across search processes, scatter-gather.
 *
 * SHARDS child processes (child_process.fork) each hold one shard of the gallery in a WasmPalmGallery (stage 1
 * in the WebAssembly SIMD kernel on the process's own thread, stage 2 there too). The coordinator scatters
 * each probe to every shard, gathers each shard's best and second candidates and merges them (the closest
 * id, then the closest other id), and checks the merged answer against a single-process search over the
 * whole gallery (the same entries in one WasmPalmGallery here). Every shard asks stage 1 for the shortlist the
 * server would use for the whole gallery (shortlistFor(N)); the single search asks for the shards' shortlists
 * together (SHARDS × that), so both reach stage 2 with as many entries. The run fails unless the merged best
 * (id and distance) equals the single search's on every probe. The second-best distance is compared and
 * every difference printed, not failed: stage 1's cascade is approximate per block of 16,384 entries (it keeps
 * the best 1/8 of a block by the lead of each prefix), and a shard's blocks are not the whole gallery's, so an
 * impostor near the shortlist's edge can reach stage 2 in one and not in the other (either way round).
 *
 * The gallery: PLANTED palms enrolled through packages/palm's own synthetic generator and TemplateProtector
 * (one sample each; the probe is another sample of the same palm, so each probe has a mate in one shard),
 * and the rest protected-template words from the package's seeded generator (createRng), as `npm run
 * bench:palm`'s speed table builds its large galleries: rendering and protecting 80,000 palms would take
 * minutes. The figures printed: per-shard search time (measured in the shard), the scatter-gather round
 * trip, the single-process search over all N, and the ratio of the round trip to the single search.
 *
 *   SHARDS=4 SHARD_SIZE=20000 PROBES=20 npm run bench:palm-shards   (the defaults)
 */
import { fork } from 'node:child_process';
import { extractFeatures } from '../packages/palm/src/features';
import { TemplateProtector, type ProbeTemplates, type ProtectedTemplate } from '../packages/palm/src/protect';
import { createRng, mixSeed } from '../packages/palm/src/random';
import { galleryShapeOf, shortlistFor, type Match, type SearchResult } from '../packages/palm/src/search';
import { syntheticPalm } from '../packages/palm/src/synthetic';
import { WasmPalmGallery } from '../packages/palm/src/wasm-search';

const SHARDS = Number(process.env.SHARDS ?? 4);
const SHARD_SIZE = Number(process.env.SHARD_SIZE ?? 20_000);
const PROBES = Number(process.env.PROBES ?? 20);
const PLANTED = Math.min(PROBES, 40);
const SEED = 0x5a4d;
const KEY = new TextEncoder().encode('bench-palm-shards-key-0123456789abcdef');
const ROI = 128;

const protector = new TemplateProtector(KEY);

/** Palm `k` enrolled (sample 0) or probed (sample 1): packages/palm's generator, features and protector. */
function plantedTemplate(k: number): ProtectedTemplate {
  return protector.enrol(
    extractFeatures(syntheticPalm({ seed: SEED, identity: k, sample: 0, setting: 'easy' }), ROI),
  );
}
function plantedProbe(k: number): ProbeTemplates {
  return protector.probe(
    extractFeatures(syntheticPalm({ seed: SEED, identity: k, sample: 1, setting: 'easy' }), ROI),
  );
}

/** Shard `s`'s entries, the same in the shard process and in the coordinator's whole gallery. */
function fillShard(gallery: WasmPalmGallery, s: number, planted: ProtectedTemplate[]): void {
  const rng = createRng(mixSeed(SEED, s));
  const words = new Uint32Array(gallery.words);
  for (let k = s; k < planted.length; k += SHARDS) gallery.add(`palm-${k}`, planted[k]!);
  for (let i = gallery.size; i < SHARD_SIZE; i++) {
    for (let w = 0; w < words.length; w++) words[w] = rng.nextU32();
    gallery.addWords(`shard${s}-${i}`, words);
  }
}

interface ShardAnswer {
  shard: number;
  result: SearchResult;
  search_ms: number;
}

// ------------------------------------------------------------------------------------------- a shard
if (process.env.PALM_SHARD !== undefined) {
  const s = Number(process.env.PALM_SHARD);
  const planted = Array.from({ length: PLANTED }, (_, k) => plantedTemplate(k));
  const gallery = new WasmPalmGallery(galleryShapeOf(planted[0]!), SHARD_SIZE);
  fillShard(gallery, s, planted);
  process.on('message', (message: { probe?: ProbeTemplates; candidates?: number; stop?: true }) => {
    if (message.stop) process.exit(0);
    const t0 = performance.now();
    const result = gallery.search(message.probe!, { candidates: message.candidates! });
    process.send!({ shard: s, result, search_ms: performance.now() - t0 } satisfies ShardAnswer);
  });
  process.send!({ ready: s });
} else {
  await coordinator();
}

/** The closest id over all shards' answers, then the closest other id (ids are unique across shards). */
function merge(results: SearchResult[]): SearchResult {
  const matches = results
    .flatMap((r) => [r.best, r.second])
    .filter((m): m is Match => m !== undefined)
    .sort((a, b) => a.distance - b.distance || (a.id < b.id ? -1 : 1));
  return {
    best: matches[0],
    second: matches.find((m) => m.id !== matches[0]?.id),
    gallerySize: results.reduce((n, r) => n + r.gallerySize, 0),
    candidates: results.reduce((n, r) => n + r.candidates, 0),
  };
}

function quantile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
}

async function coordinator(): Promise<void> {
  const total = SHARDS * SHARD_SIZE;
  const candidates = shortlistFor(total);
  const singleCandidates = SHARDS * candidates;
  console.log(
    `palm gallery in ${SHARDS} shard processes × ${SHARD_SIZE.toLocaleString('en-US')} = ${total.toLocaleString('en-US')} ` +
      `protected templates (${PLANTED} enrolled synthetic palms, the rest seeded template words); ${PROBES} probes; ` +
      `shortlist ${candidates} (shortlistFor(${total})) in every shard, ${singleCandidates} in the single search`,
  );
  const started = performance.now();
  const children = Array.from({ length: SHARDS }, (_, s) =>
    fork(new URL(import.meta.url).pathname, [], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, PALM_SHARD: String(s) },
      serialization: 'advanced',
    }),
  );
  const pending = new Map<number, (answer: ShardAnswer) => void>();
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve, reject) => {
          child.once('exit', (code) => reject(new Error(`a shard exited (${code})`)));
          child.on('message', (message: ShardAnswer | { ready: number }) => {
            if ('ready' in message) return resolve();
            pending.get(message.shard)?.(message);
          });
        }),
    ),
  );
  console.log(`shards loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  // The single-process baseline: the same entries in one gallery.
  const planted = Array.from({ length: PLANTED }, (_, k) => plantedTemplate(k));
  const whole = new WasmPalmGallery(galleryShapeOf(planted[0]!), total);
  for (let s = 0; s < SHARDS; s++) fillShard(whole, s, planted);
  const probes = Array.from({ length: PROBES }, (_, r) => plantedProbe(r % PLANTED));

  const scatter = (probe: ProbeTemplates) =>
    Promise.all(
      children.map(
        (child, s) =>
          new Promise<ShardAnswer>((resolve) => {
            pending.set(s, resolve);
            child.send({ probe, candidates });
          }),
      ),
    );
  // Warm-up: the kernels compiled, the first messages' serialisation paid.
  for (const probe of probes.slice(0, 3)) {
    await scatter(probe);
    whole.search(probe, { candidates: singleCandidates });
  }

  const perShard: number[][] = Array.from({ length: SHARDS }, () => []);
  const roundTrips: number[] = [];
  const singles: number[] = [];
  let same = 0;
  let sameBest = 0;
  let mates = 0;
  const differences: string[] = [];
  for (const [r, probe] of probes.entries()) {
    const t0 = performance.now();
    const answers = await scatter(probe);
    const merged = merge(answers.map((a) => a.result));
    roundTrips.push(performance.now() - t0);
    for (const a of answers) perShard[a.shard]!.push(a.search_ms);
    const t1 = performance.now();
    const single = whole.search(probe, { candidates: singleCandidates });
    singles.push(performance.now() - t1);
    const key = (m: Match | undefined) => `${m?.id}@${m?.distance}`;
    if (key(merged.best) === key(single.best)) sameBest++;
    if (key(merged.best) === key(single.best) && merged.second?.distance === single.second?.distance) same++;
    else
      differences.push(
        `probe ${r}: merged ${key(merged.best)} / ${key(merged.second)}, single ${key(single.best)} / ${key(single.second)}`,
      );
    if (merged.best?.id === `palm-${r % PLANTED}`) mates++;
  }
  for (const child of children) child.send({ stop: true });

  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const cell = (v: number[]) => `p50 ${ms(quantile(v, 0.5))}, p95 ${ms(quantile(v, 0.95))}`;
  for (const [s, times] of perShard.entries())
    console.log(`shard ${s} (${SHARD_SIZE.toLocaleString('en-US')} entries): search ${cell(times)}`);
  const probeBytes = probes[0]!.fine.byteLength + probes[0]!.coarse.byteLength;
  console.log(
    `scatter-gather round trip (${SHARDS} shards, merge included; each probe ${(probeBytes / 1024).toFixed(0)} KiB ` +
      `sent to every shard over IPC): ${cell(roundTrips)}`,
  );
  console.log(`single process over all ${total.toLocaleString('en-US')}: ${cell(singles)}`);
  console.log(
    `round trip / single search: x${(quantile(roundTrips, 0.5) / quantile(singles, 0.5)).toFixed(2)} (p50); ` +
      `stage-1+2 cost per entry in one process: ${((quantile(singles, 0.5) / total) * 1e6).toFixed(1)} ns; ` +
      `template ${whole.words * 4} bytes, kernel copy of the coarse prefixes included in the process's memory`,
  );
  console.log(
    `merged best equals the single-process search's (id and distance) on ${sameBest} of ${PROBES} probes, ` +
      `best and second-best distance on ${same} of ${PROBES}; ` +
      `the planted mate found first on ${mates} of ${PROBES}`,
  );
  for (const d of differences) console.log(`  differs: ${d}`);
  if (sameBest !== PROBES) process.exitCode = 1;
}
