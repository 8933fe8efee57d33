/**
 * npm run bench:replay — where a replayed palm scan ends and a fresh capture begins (issue 21, item 4;
 * decision 025). A scan is 3 frames fused and protected exactly as the server does (packages/palm fusion +
 * Index-of-Max protection). The benchmark prints the distance distributions between
 *   (a) two DISTINCT honest scans of one palm, and
 *   (b) a scan and a replay of it: the same frames as they are, re-encoded as JPEG at several qualities,
 *       shifted or cropped by 1–3 px, with sensor noise σ 1–4, combinations of these, and the frames reordered
 *       or cut down to one,
 * on two sources: the synthetic generator (packages/palm/src/synthetic.ts, each of its settings) and an
 * independent variation model written here, which the engine was never tuned on: one rendered capture of
 * each palm, re-scanned by small random affine changes (rotation up to ±8°, shift a few pixels, scale a few
 * percent), blur, a lighting gradient and noise, the frames of one scan nearly alike and two scans further
 * apart. For the floor in packages/palm/src/replay.ts (REPLAY_MAX_DISTANCE) it prints the share of honest
 * re-scans refused as replays and the share of replays caught, per source, and the worst of each.
 *
 * The distance is the guard's (packages/palm/src/replay.ts ReplayScan): the arriving scan's frames moved back
 * by up to 3 px or un-cropped, fused and protected again, against the stored template; the plain
 * template-to-template distance is printed beside it for comparison.
 *
 * Options: --identities N (per source, default 24) --scans S (honest scans per palm, default 3)
 *          --replays-per-palm R (default 9, the replay kinds in turn) --seed X
 */
import { jpegRoundTrip, cropped, noisy, shifted } from './palm-replay-variants';
import { extractFeatures } from '../packages/palm/src/features';
import { FRAME_AGREEMENT_MAX_DISTANCE, fuseFeatures } from '../packages/palm/src/fusion';
import { TemplateProtector, type ProtectedTemplate } from '../packages/palm/src/protect';
import { createRng, mixSeed, type Rng } from '../packages/palm/src/random';
import { distance, REPLAY_MAX_DISTANCE, ReplayScan } from '../packages/palm/src/replay';
import { createIdentity, renderSample, type SyntheticSetting } from '../packages/palm/src/synthetic';

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const value = Number(process.argv[i + 1]);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} needs a positive whole number`);
  return value;
}

const IDENTITIES = option('identities', 24);
const SCANS = Math.max(2, option('scans', 3));
const SEED = option('seed', 20261126);
/** Replays made of each palm's first scan: the kinds below in turn, so every kind is tried on many palms. */
const REPLAYS_PER_PALM = option('replays-per-palm', 9);
const SIDE = 128;
const FRAMES = 3;
/** How many recent scans the server keeps per person (the guard compares a new scan with each). */
const RECENT = 50;

const protector = new TemplateProtector(Uint8Array.from({ length: 32 }, (_, i) => (i * 37 + 11) & 0xff));

interface Scan {
  template: ProtectedTemplate;
  replay: ReplayScan;
}

/** The scan as the server makes it (palm-service.ts fusedFeature + protection), or undefined if refused. */
function scanOf(frames: readonly Uint8Array[]): Scan | undefined {
  const fused = fuseFeatures(frames.map((frame) => extractFeatures(frame, SIDE)));
  if (!fused.distances.every((d) => d <= FRAME_AGREEMENT_MAX_DISTANCE)) return undefined;
  const replay = new ReplayScan(protector, frames, SIDE, fused.features);
  return { template: replay.template, replay };
}

const unaligned = distance;
/** The guard's distance: the arriving scan's versions against the stored template. */
const guardDistance = (stored: Scan, arriving: Scan) => arriving.replay.closestDistance([stored.template])!;

// ------------------------------------------------------------------------------------ replays of a scan

interface Variant {
  name: string;
  frames: (frames: readonly Uint8Array[], rng: Rng) => Uint8Array[];
  /** A copy the guard is not built to catch (its frames changed one by one): shown apart, not in (b). */
  beyond?: true;
}
const each =
  (f: (frame: Uint8Array, rng: Rng) => Uint8Array) =>
  (frames: readonly Uint8Array[], rng: Rng): Uint8Array[] =>
    frames.map((frame) => f(frame, rng));

const VARIANTS: Variant[] = [
  { name: 'the same frames', frames: (f) => [...f] },
  ...[95, 85, 75, 60].map((q) => ({ name: `JPEG q${q}`, frames: each((f) => jpegRoundTrip(f, q)) })),
  ...[1, 2, 3].map((px) => ({
    name: `shift ${px} px`,
    // The whole scan moved: px on one axis, up to px on the other, directions at random.
    frames: (f: readonly Uint8Array[], rng: Rng) => {
      const dx = rng.chance(0.5) ? px : -px;
      const dy = Math.round(rng.range(-px, px));
      return rng.chance(0.5)
        ? f.map((frame) => shifted(frame, dx, dy))
        : f.map((frame) => shifted(frame, dy, dx));
    },
  })),
  ...[1, 2, 3].map((px) => ({ name: `crop ${px} px`, frames: each((f) => cropped(f, px)) })),
  ...[1, 2, 3, 4].map((sigma) => ({
    name: `noise σ${sigma}`,
    frames: each((f, rng) => noisy(f, sigma, rng)),
  })),
  { name: 'shift 1 px + JPEG q75', frames: each((f) => jpegRoundTrip(shifted(f, 1, 1), 75)) },
  {
    name: 'crop 2 px + JPEG q85 + noise σ2',
    frames: each((f, rng) => noisy(jpegRoundTrip(cropped(f, 2), 85), 2, rng)),
  },
  {
    name: 'shift 3 px + noise σ4 + JPEG q60',
    frames: each((f, rng) => jpegRoundTrip(noisy(shifted(f, 3, -2), 4, rng), 60)),
  },
  { name: 'crop 3 px + JPEG q75', frames: each((f) => jpegRoundTrip(cropped(f, 3), 75)) },
  { name: 'frames reordered', frames: (f) => [f[2]!, f[0]!, f[1]!], beyond: true },
  { name: 'one frame of the scan', frames: (f) => [f[1]!], beyond: true },
  {
    name: 'one frame three times + noise σ2',
    frames: (f, rng) => [0, 1, 2].map(() => noisy(f[0]!, 2, rng)),
    beyond: true,
  },
  {
    name: 'each frame shifted its own way by 1 px',
    frames: each((f, rng) => shifted(f, rng.chance(0.5) ? 1 : -1, rng.chance(0.5) ? 1 : -1)),
    beyond: true,
  },
];

// ------------------------------------------------------------------------------------------- sources

/** Honest scans of one palm: each call gives the frames of a new, distinct scan. */
type Palm = { scan: (k: number) => Uint8Array[] };
interface Source {
  name: string;
  palm: (identity: number) => Palm;
}

function syntheticSource(setting: SyntheticSetting): Source {
  return {
    name: `synthetic, ${setting}`,
    palm: (identity) => {
      const palm = createIdentity(SEED, identity);
      // Each frame is an independent sample of the generator: its own ROI pose, light and sensor noise.
      return {
        scan: (k) =>
          Array.from({ length: FRAMES }, (_, f) => renderSample(palm, FRAMES * k + f, setting, SIDE)),
      };
    },
  };
}

/** Bilinear sample of a grey image with the edge repeated. */
function sample(image: Float32Array | Uint8Array, x: number, y: number): number {
  const cx = Math.min(SIDE - 1, Math.max(0, x));
  const cy = Math.min(SIDE - 1, Math.max(0, y));
  const x0 = Math.min(SIDE - 2, Math.floor(cx));
  const y0 = Math.min(SIDE - 2, Math.floor(cy));
  const fx = cx - x0;
  const fy = cy - y0;
  const at = (xx: number, yy: number) => image[yy * SIDE + xx]!;
  return (
    (at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx) * (1 - fy) +
    (at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx) * fy
  );
}

function blur(image: Float32Array, sigma: number): Float32Array {
  const radius = Math.max(1, Math.ceil(3 * sigma));
  const kernel = Array.from({ length: 2 * radius + 1 }, (_, i) =>
    Math.exp(-((i - radius) ** 2) / (2 * sigma * sigma)),
  );
  const total = kernel.reduce((a, b) => a + b, 0);
  const pass = (source: Float32Array, horizontal: boolean) =>
    Float32Array.from({ length: SIDE * SIDE }, (_, i) => {
      const x = i % SIDE;
      const y = Math.floor(i / SIDE);
      let acc = 0;
      for (let k = -radius; k <= radius; k++) {
        const xx = horizontal ? Math.min(SIDE - 1, Math.max(0, x + k)) : x;
        const yy = horizontal ? y : Math.min(SIDE - 1, Math.max(0, y + k));
        acc += kernel[k + radius]! * source[yy * SIDE + xx]!;
      }
      return acc / total;
    });
  return pass(pass(image, true), false);
}

/**
 * The independent model: one capture of the palm (the generator's easy setting, sample 0) is the palm; a scan
 * is a hand placed again (rotation ±8°, shift ±3 px, scale ±3 %, zoomed in 15 % so the turned square stays
 * on the palm), lit again (gain, a gradient across the ROI) and focused again (blur); its frames are that
 * pose within a fraction of a degree and a pixel, each with its own sensor noise.
 */
const affineSource: Source = {
  name: 'independent affine model',
  palm: (identity) => {
    const base = renderSample(createIdentity(SEED + 1, identity), 0, 'easy', SIDE);
    return {
      scan: (k) => {
        const rng = createRng(mixSeed(SEED, identity, k, 0xaff));
        const rotation = rng.range(-8, 8);
        const dx = rng.range(-3, 3);
        const dy = rng.range(-3, 3);
        const scale = 1.15 * (1 + rng.range(-0.03, 0.03));
        const gain = rng.range(0.85, 1.15);
        const slope = rng.range(0, 0.2);
        const angle = rng.range(0, 2 * Math.PI);
        const sigma = rng.range(0.3, 1.0);
        return Array.from({ length: FRAMES }, () => {
          const theta = ((rotation + rng.range(-0.5, 0.5)) * Math.PI) / 180;
          const fdx = dx + rng.range(-0.5, 0.5);
          const fdy = dy + rng.range(-0.5, 0.5);
          const cos = Math.cos(theta) / scale;
          const sin = Math.sin(theta) / scale;
          const c = (SIDE - 1) / 2;
          const warped = Float32Array.from({ length: SIDE * SIDE }, (_, i) => {
            const u = (i % SIDE) - c - fdx;
            const v = Math.floor(i / SIDE) - c - fdy;
            const light =
              gain * (1 + slope * (Math.cos(angle) * (u / SIDE) + Math.sin(angle) * (v / SIDE)) * 2);
            return light * sample(base, c + cos * u - sin * v, c + sin * u + cos * v);
          });
          const noise = rng.range(1.5, 4);
          return Uint8Array.from(blur(warped, sigma), (value) =>
            Math.min(255, Math.max(0, Math.round(value + noise * rng.normal()))),
          );
        });
      },
    };
  },
};

const SOURCES: Source[] = [
  syntheticSource('easy'),
  syntheticSource('medium'),
  syntheticSource('hard'),
  affineSource,
];

// ------------------------------------------------------------------------------------------ measuring

interface Measured {
  source: string;
  honest: number[];
  honestUnaligned: number[];
  replays: number[];
  replaysUnaligned: number[];
  perVariant: Map<string, number[]>;
  refusedScans: number;
}

function measure(source: Source): Measured {
  const m: Measured = {
    source: source.name,
    honest: [],
    honestUnaligned: [],
    replays: [],
    replaysUnaligned: [],
    perVariant: new Map(VARIANTS.map((v) => [v.name, []])),
    refusedScans: 0,
  };
  for (let identity = 0; identity < IDENTITIES; identity++) {
    const palm = source.palm(identity);
    const frames = Array.from({ length: SCANS }, (_, k) => palm.scan(k));
    const scans = frames.map(scanOf);
    // (a) every ordered pair of distinct honest scans: the earlier one stored, the later one arriving.
    for (let i = 0; i < SCANS; i++) {
      for (let j = 0; j < SCANS; j++) {
        const stored = scans[i];
        const arriving = scans[j];
        if (i === j || !stored || !arriving) continue;
        m.honest.push(guardDistance(stored, arriving));
        if (i < j) m.honestUnaligned.push(unaligned(stored.template, arriving.template));
      }
    }
    m.refusedScans += scans.filter((s) => !s).length;
    // (b) replays of the first scan that the server accepted.
    const original = scans.findIndex((s) => s !== undefined);
    if (original < 0) continue;
    const stored = scans[original]!;
    VARIANTS.forEach((variant, v) => {
      if (
        (v - identity * REPLAYS_PER_PALM + VARIANTS.length * IDENTITIES) % VARIANTS.length >=
        REPLAYS_PER_PALM
      )
        return;
      const rng = createRng(mixSeed(SEED, identity, v, 0x7e91a));
      const replay = scanOf(variant.frames(frames[original]!, rng));
      // A copy the server refuses as unclear or as two palms pays nobody: nothing to guard.
      if (!replay) return;
      const d = guardDistance(stored, replay);
      m.perVariant.get(variant.name)!.push(d);
      if (variant.beyond) return;
      m.replays.push(d);
      m.replaysUnaligned.push(unaligned(stored.template, replay.template));
    });
  }
  return m;
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.floor(q * sorted.length)))]!;
}
const sortedOf = (values: readonly number[]) => [...values].sort((a, b) => a - b);
const f3 = (x: number) => x.toFixed(3);
const pct = (x: number) => `${(100 * x).toFixed(2)} %`;
const QUANTILES: [string, number][] = [
  ['min', 0],
  ['0.1 %', 0.001],
  ['1 %', 0.01],
  ['5 %', 0.05],
  ['median', 0.5],
  ['95 %', 0.95],
  ['99 %', 0.99],
  ['max', 1],
];

function row(label: string, values: readonly number[]): string {
  const s = sortedOf(values);
  return `| ${label} | ${s.length} | ${QUANTILES.map(([, q]) => f3(quantile(s, q))).join(' | ')} |`;
}

function main(): void {
  const started = performance.now();
  console.log('# Palm replay guard benchmark (npm run bench:replay)');
  console.log('');
  console.log(
    `${IDENTITIES} palms per source, ${SCANS} honest scans of ${FRAMES} frames each, ${REPLAYS_PER_PALM} replays ` +
      `of the first scan (of ${VARIANTS.length} kinds, in turn), seed ${SEED}. Distance: replay.ts ReplayScan.closestDistance ` +
      `(the arriving scan moved back by up to 3 px or un-cropped, against the stored template), 0..1.`,
  );
  const results = SOURCES.map((source) => {
    const m = measure(source);
    console.log(`(${source.name}: ${((performance.now() - started) / 1000).toFixed(0)} s)`);
    return m;
  });

  const header = `| | pairs | ${QUANTILES.map(([name]) => name).join(' | ')} |`;
  const rule = `|---|---:|${QUANTILES.map(() => '---:').join('|')}|`;
  console.log('');
  console.log('## Distances (aligned, as the guard measures)');
  console.log('');
  console.log(header);
  console.log(rule);
  for (const m of results) {
    console.log(row(`(a) two honest scans — ${m.source}`, m.honest));
    console.log(row(`(b) replays — ${m.source}`, m.replays));
  }
  const allHonest = results.map((m) => sortedOf(m.honest));
  const allReplays = results.map((m) => sortedOf(m.replays));
  const worstHonest = QUANTILES.map(([, q]) => Math.min(...allHonest.map((s) => quantile(s, q))));
  const worstReplay = QUANTILES.map(([, q]) => Math.max(...allReplays.map((s) => quantile(s, q))));
  console.log(`| (a) worst source (lowest) | | ${worstHonest.map(f3).join(' | ')} |`);
  console.log(`| (b) worst source (highest) | | ${worstReplay.map(f3).join(' | ')} |`);

  console.log('');
  console.log('## Unaligned template-to-template distance, for comparison');
  console.log('');
  console.log(header);
  console.log(rule);
  for (const m of results) {
    console.log(row(`(a) ${m.source}`, m.honestUnaligned));
    console.log(row(`(b) ${m.source}`, m.replaysUnaligned));
  }

  console.log('');
  console.log('## Largest replay distance per replay kind (all sources)');
  console.log('');
  console.log(`| replay | replays | median | max | caught at the floor (${REPLAY_MAX_DISTANCE}) |`);
  console.log('|---|---:|---:|---:|---:|');
  for (const variant of VARIANTS) {
    const values = sortedOf(results.flatMap((m) => m.perVariant.get(variant.name)!));
    if (values.length === 0) {
      console.log(`| ${variant.name} | 0 (every copy refused as unclear) | | |`);
      continue;
    }
    const name = variant.beyond ? `${variant.name} (beyond the guard, not in (b))` : variant.name;
    const caught = values.filter((d) => d <= REPLAY_MAX_DISTANCE).length / values.length;
    console.log(
      `| ${name} | ${values.length} | ${f3(quantile(values, 0.5))} | ${f3(values.at(-1)!)} | ${pct(caught)} |`,
    );
  }

  const floor = REPLAY_MAX_DISTANCE;
  console.log('');
  console.log(`## At the floor REPLAY_MAX_DISTANCE = ${floor} (a scan this close or closer is a replay)`);
  console.log('');
  console.log(
    '| source | honest re-scans refused (per stored scan) | … against 50 recent scans | replays caught |',
  );
  console.log('|---|---:|---:|---:|');
  let worstFalse = 0;
  let worstCaught = 1;
  for (const m of results) {
    const falseRate = m.honest.filter((d) => d <= floor).length / m.honest.length;
    const caught = m.replays.filter((d) => d <= floor).length / m.replays.length;
    worstFalse = Math.max(worstFalse, falseRate);
    worstCaught = Math.min(worstCaught, caught);
    const against50 = 1 - (1 - falseRate) ** RECENT;
    console.log(`| ${m.source} | ${pct(falseRate)} | ${pct(against50)} | ${pct(caught)} |`);
  }
  console.log(
    `| worst | ${pct(worstFalse)} | ${pct(1 - (1 - worstFalse) ** RECENT)} | ${pct(worstCaught)} |`,
  );
  const gap = {
    top: Math.max(...allReplays.map((s) => s.at(-1)!)),
    bottom: Math.min(...allHonest.map((s) => s[0]!)),
  };
  console.log('');
  console.log(
    `Largest replay distance ${f3(gap.top)}, smallest honest distance ${f3(gap.bottom)}; the floor ${floor} is ` +
      `${f3(gap.bottom - floor)} below the smallest honest distance. ` +
      `Scans refused as unclear or two palms (not counted above): ${results.map((m) => `${m.source} ${m.refusedScans}`).join(', ')}.`,
  );
  console.log(`Benchmark wall time: ${((performance.now() - started) / 1000).toFixed(0)} s.`);
}

main();
