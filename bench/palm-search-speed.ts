/**
 * The 1:N search's speed alone (the speed half of `npm run bench:palm` for one gallery size, without the
 * accuracy sections): a gallery of random templates, probes made from palms of packages/palm/src/synthetic.ts
 * as the server makes them (the coarse grid of stage 2 coarse to fine), searched with stage 1 in 2 worker
 * threads (PalmSearchPool) and on the calling thread (the WebAssembly kernel), each in its own loop.
 *
 *   node --import tsx bench/palm-search-speed.ts [--size 1000000] [--runs 100] [--plan '{...}']
 *                                                [--protection '{...}'] [--paths workers,wasm]
 *
 * Prints p50 / p95 of each path, the workers' timeline (later worker started, last block finished, wake-up
 * to result) and the load average before and after (the machine is shared: say it with the figures).
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { extractFeatures } from '../packages/palm/src/features';
import { PalmSearchPool } from '../packages/palm/src/parallel-search';
import {
  coarseGridOf,
  DEFAULT_ALIGNMENT_PLAN,
  DEFAULT_PROTECTION,
  TemplateProtector,
  type AlignmentPlan,
} from '../packages/palm/src/protect';
import { createRng } from '../packages/palm/src/random';
import { shortlistFor } from '../packages/palm/src/search';
import { createIdentity, renderSample } from '../packages/palm/src/synthetic';
import { WasmPalmGallery } from '../packages/palm/src/wasm-search';
import { ms, quantile } from './palm-scores';

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? fallback : process.argv[i + 1]!;
}

const SIZE = Number(option('size', '1000000'));
const RUNS = Number(option('runs', '100'));
const PATHS = option('paths', 'workers,wasm').split(',');
const PLAN: Readonly<AlignmentPlan> = { ...DEFAULT_ALIGNMENT_PLAN, ...JSON.parse(option('plan', '{}')) };
const KEY = Uint8Array.from({ length: 32 }, (_, i) => (i * 31 + 7) & 0xff);

const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

async function main(): Promise<void> {
  const protector = new TemplateProtector(KEY, {
    ...DEFAULT_PROTECTION,
    ...JSON.parse(option('protection', '{}')),
  });
  const grid = coarseGridOf(PLAN);
  const probes = Array.from({ length: 20 }, (_, i) => {
    const features = extractFeatures(renderSample(createIdentity(11, i), 1, 'medium', 128), 128);
    return protector.prober(features, PLAN).probe(grid);
  });
  const shapeTemplate = protector.enrol(
    extractFeatures(renderSample(createIdentity(11, 0), 0, 'medium', 128), 128),
  );
  const gallery = new WasmPalmGallery(shapeTemplate, SIZE);
  const rng = createRng(5);
  const words = new Uint32Array(protector.words);
  for (let i = 0; i < SIZE; i++) {
    for (let w = 0; w < words.length; w++) words[w] = rng.nextU32();
    gallery.addWords(`random-${i}`, words);
  }
  const candidates = shortlistFor(SIZE);
  // Pools to compare, each `<workers>w` or `<workers>w+c` (the calling thread taking blocks too), every
  // probe searched by each in turn so that they share the machine's load.
  const pools = option('pools', '2w')
    .split(',')
    .map((spec) => ({
      spec,
      pool: new PalmSearchPool({
        threads: Number(spec.split('w')[0]),
        parallelFrom: 1,
        callerTakesBlocks: spec.endsWith('+c'),
      }),
      times: [] as number[],
      started: [] as number[],
      finished: [] as number[],
      after: [] as number[],
      own: [] as number[],
    }));
  console.log(
    `N = ${SIZE.toLocaleString('en-US')}, shortlist ${candidates}, ${probes[0]!.coarseAlignments} coarse ` +
      `alignments, ${probes[0]!.fineAlignments} fine; load before: ${load()}`,
  );
  for (const p of pools) {
    for (let r = 0; r < 5; r++) await p.pool.search(gallery, probes[r % probes.length]!, { candidates });
  }
  const wasmTimes: number[] = [];
  const wasmCpu: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const probe = probes[r % probes.length]!;
    for (const p of pools) {
      const t0 = performance.now();
      const result = await p.pool.search(gallery, probe, { candidates });
      p.times.push(performance.now() - t0);
      if (result.stage1 !== 'workers') throw new Error(`stage 1 ran on ${result.stage1}`);
      const timeline = p.pool.lastTimeline!;
      p.started.push(Math.max(...timeline.workers.map((w) => w.from)));
      p.finished.push(Math.max(...timeline.workers.map((w) => w.to)));
      p.after.push(timeline.done - timeline.resumed);
      if (p.pool.callerTakesBlocks) p.own.push(p.pool.lastShardCounts.at(-1)!);
    }
    if (PATHS.includes('wasm')) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      gallery.search(probe, { candidates });
      wasmTimes.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      wasmCpu.push((c.user + c.system) / 1000);
    }
  }
  const cell = (t: number[]) => `${ms(quantile(t, 0.5))} / ${ms(quantile(t, 0.95))}`;
  for (const p of pools) {
    console.log(
      `${p.spec.padEnd(6)} p50 / p95 ${cell(p.times)}  (later worker started ${cell(p.started)}, last block ` +
        `finished ${cell(p.finished)}, wake-up to result ${cell(p.after)}` +
        (p.own.length ? `; blocks taken by the calling thread ${cell(p.own)}` : '') +
        ')',
    );
    await p.pool.close();
  }
  if (wasmTimes.length) {
    // CPU time of the search on one thread: the work, which the machine's load does not change (much).
    console.log(`wasm   p50 / p95 ${cell(wasmTimes)} (one thread); its CPU time p50 / p95 ${cell(wasmCpu)}`);
  }
  console.log(`load after: ${load()}`);
}

await main();
