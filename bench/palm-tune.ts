/**
 * A small, fast accuracy measurement for tuning the palm engine (issue 26), on ONE palm model and nuisance
 * level at a time. Model A only (bench/palm-data/model-a.ts, the engine's own generator seen through the
 * phone-camera model bench/palm-data/camera.ts); never run it on model B, the held-out set.
 *
 *   node --import tsx bench/palm-tune.ts [--level medium] [--identities 200] [--holds 3] [--impostors 30000]
 *                                        [--seed 7] [--source camera|synthetic] [--plan '{"scales":[1]}']
 *                                        [--cache /tmp/palm-tune] [--features '{"smooth_cells":1}']
 *                                        [--protection '{"coarseSmooth_cells":1}'] [--raw 3000]
 *                                        [--norm sd|mean|floor]
 *
 * Per identity: `holds` holds of 3 frames each (one pose, light and focus per hold; bench/palm-data/camera.ts
 * `captureHold`). Registration = hold 0 fused (packages/palm/src/fusion.ts), as the server registers; probes =
 * every later hold fused (a payment scan), and, for the one-capture rows, frame 0 of hold 0 against frame 0 of
 * every later hold. Distances are the protected ones the server uses (`verifyDistance`, stage 2's full
 * alignments; `coarseDistance`, stage 1's coarse prefix): every genuine pair and `impostors` random pairs of
 * different identities. Prints EER, FNMR at FMR 1e-3 / 1e-4, genuine and impostor mean ± sd, the fitted
 * normal tail of the impostors (location / scale, as DEFAULT_IMPOSTOR_MODEL), stage 1's genuine miss at the
 * coarse distance that 256 of 10^6 impostors reach (the shortlist at N = 10^6, a proxy for decision 016's
 * survival estimate) and the time per extraction + fusion + protection of a 3-frame scan.
 *
 * `--raw M`: also the unprotected Competitive Code distance under the same poses and shifts as stage 2 (the
 * minimum over the plan's rotations × scales of `codeDistance` with its shifts), every genuine pair and M
 * impostor pairs: the EER that protection costs is the difference.
 *
 * `--c2f off` scores fused probes over the plan's full grid (verifyDistance); by default, or with `--c2f
 * '{"rotationStep":1}'` (protect.ts CoarseToFine), as the server does: the coarse grid, then `--descents` N
 * (search.ts REFINE_DESCENTS) descents over the full grid, every pair refined. Stage 1's miss is printed at
 * the shortlists 256 and 1,024 (search.ts shortlistFor at 10^6). Then stage 2's polish (search.ts polishDistance,
 * `--polish '{"rounds":3}'` to change its steps, `--polish off` for the refinement alone), as the server does.
 *
 * The fused row also prints the normalised scores the server decides on (score-normalisation.ts, each probe
 * against its cohort), their own tail fit, and stage 2's genuine miss at FMR 1e-9 (N = 10^6) against that fit
 * and against the committed DEFAULT_NORMALISED_IMPOSTOR_MODEL.
 *
 * `--source synthetic` uses packages/palm/src/synthetic.ts `renderSample` at the level's setting instead of
 * the camera model (independent captures as frames; a stand-in when bench/palm-data is not there).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import {
  codeDistance,
  DEFAULT_FEATURE_OPTIONS,
  encodeCode,
  extractFeatures,
  type PalmCode,
  type FeatureOptions,
  type PalmFeatures,
} from '../packages/palm/src/features';
import { fuseFeatures, HOLD_FUSION_PLAN, type FusionPlan } from '../packages/palm/src/fusion';
import {
  coarseGridOf,
  DEFAULT_ALIGNMENT_PLAN,
  DEFAULT_COARSE_TO_FINE,
  type CoarseToFine,
  type ProbeHasher,
  DEFAULT_PROTECTION,
  TemplateProtector,
  type AlignmentPlan,
  type ProbeTemplates,
  type ProtectedTemplate,
} from '../packages/palm/src/protect';
import { createRng } from '../packages/palm/src/random';
import {
  coarseDistance,
  normalQuantile,
  DEFAULT_POLISH,
  polishDistance,
  REFINE_DESCENTS,
  refineAlignment,
  thresholdForFmr,
  verifyDistance,
} from '../packages/palm/src/search';
import { createIdentity, renderSample, type SyntheticSetting } from '../packages/palm/src/synthetic';
import {
  DEFAULT_NORMALISED_IMPOSTOR_MODEL,
  normalisedScore,
  normaliserFor,
} from '../packages/palm/src/score-normalisation';
import {
  countAtMost,
  equalErrorRate,
  fitImpostorTail,
  fnmrAtFmr,
  meanSd,
  sorted,
  type Scores,
} from './palm-scores';

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? fallback : process.argv[i + 1]!;
}

const LEVEL = option('level', 'medium') as SyntheticSetting;
const IDENTITIES = Number(option('identities', '200'));
const HOLDS = Number(option('holds', '3'));
const IMPOSTORS = Number(option('impostors', '30000'));
const SEED = Number(option('seed', '7'));
const SOURCE = option('source', 'camera');
const FRAMES = 3;
const SIZE = 128;
/**
 * `--enrol-holds K`: the registration fuses K holds (each hold's frames fused, then holds 1..K-1 aligned to
 * hold 0 under fusion.ts HOLD_FUSION_PLAN, or `--hold-plan` JSON over it, and averaged in). `--probe-from P` (default K): the
 * payment scans are holds P.. only, so runs with different K can be scored on the same scans.
 */
const ENROL_HOLDS = Number(option('enrol-holds', '1'));
const PROBE_FROM = Number(option('probe-from', String(ENROL_HOLDS)));
if (!(ENROL_HOLDS >= 1 && PROBE_FROM >= ENROL_HOLDS && PROBE_FROM < HOLDS))
  throw new Error('--enrol-holds K --probe-from P: 1 <= K <= P < holds');
const HOLD_PLAN: Readonly<FusionPlan> = { ...HOLD_FUSION_PLAN, ...JSON.parse(option('hold-plan', '{}')) };
/** An alignment plan as JSON (fields of AlignmentPlan to override), for trying plans without editing. */
const PLAN: Readonly<AlignmentPlan> = { ...DEFAULT_ALIGNMENT_PLAN, ...JSON.parse(option('plan', '{}')) };
/** Feature options as JSON (fields of FeatureOptions to override). */
const FEATURES: Readonly<FeatureOptions> = {
  ...DEFAULT_FEATURE_OPTIONS,
  ...JSON.parse(option('features', '{}')),
};
/** Impostor pairs of the unprotected comparison (0: skip it). */
const RAW_IMPOSTORS = Number(option('raw', '0'));
/** Coarse-to-fine steps as JSON (protect.ts CoarseToFine), or 'off' for the plan's full grid. */
const C2F_OPTION = option('c2f', 'default');
/** Descents of the refinement (search.ts REFINE_DESCENTS). */
const DESCENTS = Number(option('descents', String(REFINE_DESCENTS)));
/** Stage 2's polish after the refinement (search.ts PolishSteps as JSON), or 'off'. */
const POLISH_OPTION = option('polish', 'default');
const POLISH =
  POLISH_OPTION === 'off'
    ? undefined
    : { ...DEFAULT_POLISH, ...(POLISH_OPTION === 'default' ? {} : JSON.parse(POLISH_OPTION)) };
const C2F: Readonly<CoarseToFine> | undefined =
  C2F_OPTION === 'off'
    ? undefined
    : { ...DEFAULT_COARSE_TO_FINE, ...(C2F_OPTION === 'default' ? {} : JSON.parse(C2F_OPTION)) };
/**
 * Decision 045's other scores, measured and not adopted: `--norm mean`, (distance − cohort mean) / COHORT_SCALE
 * for every probe; `--norm floor`, (distance − cohort mean) / max(cohort sd, COHORT_SCALE). By default, as the
 * server normalises (score-normalisation.ts: / cohort sd). The stage-2 miss "model" is then against a model
 * fitted to the server's scores, not to these (decision 045 has their own fits).
 */
const COHORT_SCALE = 0.016;
const NORM = option('norm', 'sd');
if (!['sd', 'mean', 'floor'].includes(NORM)) throw new Error(`--norm ${NORM}: sd, mean or floor`);
const KEY = Uint8Array.from({ length: 32 }, (_, i) => (i * 29 + 5) & 0xff);

type HoldSource = (identity: number, hold: number) => Uint8Array[];

async function holdSource(): Promise<HoldSource> {
  if (SOURCE === 'synthetic') {
    const cache = new Map<number, ReturnType<typeof createIdentity>>();
    return (identity, hold) => {
      let palm = cache.get(identity);
      if (!palm) cache.set(identity, (palm = createIdentity(SEED, identity)));
      return Array.from({ length: FRAMES }, (_, f) => renderSample(palm!, hold * FRAMES + f, LEVEL, SIZE));
    };
  }
  // Model A through the camera model (bench/palm-data, branch palm-data).
  const modelPath = './palm-data/model-a';
  const cameraPath = './palm-data/camera';
  const { modelA } = (await import(modelPath)) as {
    modelA: { identity(seed: number, index: number): unknown };
  };
  const { captureHold, holdSeed } = (await import(cameraPath)) as {
    captureHold(identity: unknown, level: string, seed: number, frames: number): Uint8Array[];
    holdSeed(seed: number, identity: number, hold: number): number;
  };
  const cache = new Map<number, unknown>();
  return (identity, hold) => {
    let palm = cache.get(identity);
    if (palm === undefined) cache.set(identity, (palm = modelA.identity(SEED, identity)));
    return captureHold(palm, LEVEL, holdSeed(SEED, identity, hold), FRAMES);
  };
}

/** Mean ± standard deviation, as the tuning lines print it. */
function spread(values: Float64Array): string {
  const { mean, sd } = meanSd(values);
  return `${mean.toFixed(4)} ± ${sd.toFixed(4)}`;
}

const pct = (x: number | undefined) => (x === undefined ? 'n/a' : `${(100 * x).toFixed(3)} %`);

function report(label: string, fine: Scores, coarse: Scores): void {
  const fit = fitImpostorTail(fine.impostor);
  const coarseFit = fitImpostorTail(coarse.impostor);
  // Stage 1 keeps 256 of 10^6 (decision 016): a mate is lost past the coarse distance 2.56e-4 of impostors reach.
  const cut = coarseFit.location + coarseFit.scale * normalQuantile(256 / 1e6);
  const stage1Miss = 1 - countAtMost(coarse.genuine, cut) / coarse.genuine.length;
  // The server's shortlist at 10^6 (search.ts shortlistFor).
  const cut1024 = coarseFit.location + coarseFit.scale * normalQuantile(1024 / 1e6);
  const stage1Miss1024 = 1 - countAtMost(coarse.genuine, cut1024) / coarse.genuine.length;
  const t6 = fit.location + fit.scale * normalQuantile(1e-6);
  const t9 = fit.location + fit.scale * normalQuantile(1e-9);
  console.log(
    [
      `${label.padEnd(10)} EER ${pct(equalErrorRate(fine))}  FNMR@1e-3 ${pct(fnmrAtFmr(fine, 1e-3))}  FNMR@1e-4 ${pct(fnmrAtFmr(fine, 1e-4))}`,
      `  genuine ${spread(fine.genuine)}  impostor ${spread(fine.impostor)}  fit ${fit.location.toFixed(4)} / ${fit.scale.toFixed(4)}`,
      `  FNMR@fit1e-6 ${pct(1 - countAtMost(fine.genuine, t6) / fine.genuine.length)}  FNMR@fit1e-9 ${pct(1 - countAtMost(fine.genuine, t9) / fine.genuine.length)}`,
      `  coarse EER ${pct(equalErrorRate(coarse))}  genuine ${spread(coarse.genuine)}  impostor ${spread(coarse.impostor)}  stage-1 miss @256/1e6 ${pct(stage1Miss)}  @1024/1e6 ${pct(stage1Miss1024)}`,
    ].join('\n'),
  );
}

/**
 * The frames of every hold, rendered once per (source, level, identities, holds, seed) and kept in the
 * --cache folder if given (rendering through the camera model is most of a run's time).
 */
async function allHolds(): Promise<Uint8Array[][][]> {
  const cacheDir = option('cache', '');
  const file = `${cacheDir}/palm-tune-${SOURCE}-${LEVEL}-${IDENTITIES}x${HOLDS}-${SEED}.bin`;
  const frameBytes = SIZE * SIZE;
  const count = IDENTITIES * HOLDS * FRAMES;
  if (cacheDir && existsSync(file)) {
    const bytes = new Uint8Array(readFileSync(file));
    if (bytes.length === count * frameBytes) {
      return Array.from({ length: IDENTITIES }, (_, id) =>
        Array.from({ length: HOLDS }, (_, hold) =>
          Array.from({ length: FRAMES }, (_, f) => {
            const at = ((id * HOLDS + hold) * FRAMES + f) * frameBytes;
            return bytes.slice(at, at + frameBytes);
          }),
        ),
      );
    }
  }
  const source = await holdSource();
  const holds = Array.from({ length: IDENTITIES }, (_, id) =>
    Array.from({ length: HOLDS }, (_, hold) => source(id, hold)),
  );
  if (cacheDir) {
    const bytes = new Uint8Array(count * frameBytes);
    holds.flat(2).forEach((frame, i) => bytes.set(frame, i * frameBytes));
    writeFileSync(file, bytes);
  }
  return holds;
}

async function main(): Promise<void> {
  const holds = await allHolds();
  const protector = new TemplateProtector(KEY, {
    ...DEFAULT_PROTECTION,
    ...JSON.parse(option('protection', '{}')),
  });
  let scanMs = 0;
  let scans = 0;
  const fusedEnrol: ProtectedTemplate[] = [];
  const singleEnrol: ProtectedTemplate[] = [];
  const fusedProbes: ProbeTemplates[][] = [];
  const rawEnrol: PalmCode[] = [];
  const rawProbes: PalmFeatures[][] = [];
  const singleProbes: ProbeTemplates[][] = [];
  const fusedHashers: ProbeHasher[][] = [];
  const grid = C2F ? coarseGridOf(PLAN, C2F) : [];
  const started = performance.now();
  for (let id = 0; id < IDENTITIES; id++) {
    const fp: ProbeTemplates[] = [];
    const sp: ProbeTemplates[] = [];
    const fh: ProbeHasher[] = [];
    const enrolHolds: PalmFeatures[] = [];
    for (let hold = 0; hold < HOLDS; hold++) {
      if (hold >= ENROL_HOLDS && hold < PROBE_FROM) continue;
      const frames = holds[id]![hold]!;
      const t0 = performance.now();
      const features: PalmFeatures[] = frames.map((frame) => extractFeatures(frame, SIZE, FEATURES));
      let fused = fuseFeatures(features).features;
      if (hold < ENROL_HOLDS) {
        enrolHolds.push(fused);
        if (hold === 0) singleEnrol.push(protector.enrol(features[0]!));
        if (hold < ENROL_HOLDS - 1) continue;
        fused = fuseFeatures(enrolHolds, HOLD_PLAN).features;
      }
      if (RAW_IMPOSTORS > 0) {
        if (hold < ENROL_HOLDS) rawEnrol.push(encodeCode(fused));
        else (rawProbes[id] ??= []).push(fused);
      }
      if (hold < ENROL_HOLDS) {
        fusedEnrol.push(protector.enrol(fused));
        scanMs += performance.now() - t0;
        scans++;
      } else {
        if (C2F) {
          const hasher = protector.prober(fused, PLAN);
          fp.push(hasher.probe(grid));
          fh.push(hasher);
        } else fp.push(protector.probe(fused, PLAN));
        scanMs += performance.now() - t0;
        scans++;
        sp.push(protector.probe(features[0]!, PLAN));
      }
    }
    fusedProbes.push(fp);
    singleProbes.push(sp);
    fusedHashers.push(fh);
  }
  const built = performance.now() - started;
  let refineMs = 0;
  let refinedPairs = 0;
  const measure = (
    enrol: ProtectedTemplate[],
    probes: ProbeTemplates[][],
    hashers?: ProbeHasher[][],
    normalised?: (d: number, probe: number, hold: number) => number,
  ) => {
    // Coarse to fine (fused probes): every pair refined over the full grid from the coarse one, as the
    // search refines its closest candidates (search.ts refineResult).
    const fine = (id: number, p: number, probe: ProbeTemplates) => {
      if (!hashers) return verifyDistance(enrol[id]!, probe);
      const { words, symbolBits, hashes } = enrol[id]!;
      const hasher = hashers[p >> 8]![p & 255]!;
      const t0 = performance.now();
      const refined = refineAlignment(words, hasher, grid, symbolBits, DESCENTS);
      const d = POLISH
        ? polishDistance(words, hasher, refined.alignment, symbolBits, POLISH, refined.mismatches)
        : refined.mismatches;
      refineMs += performance.now() - t0;
      refinedPairs++;
      return d / hashes;
    };
    const g: number[] = [];
    const gc: number[] = [];
    const gz: number[] = [];
    const iz: number[] = [];
    for (let id = 0; id < IDENTITIES; id++) {
      for (const [h, probe] of probes[id]!.entries()) {
        g.push(fine(id, id * 256 + h, probe));
        if (normalised) gz.push(normalised(g[g.length - 1]!, id, h));
        gc.push(coarseDistance(enrol[id]!, probe));
      }
    }
    const rng = createRng(SEED ^ 0x5eed);
    const im: number[] = [];
    const ic: number[] = [];
    for (let k = 0; k < IMPOSTORS; k++) {
      const a = rng.int(IDENTITIES);
      let b = rng.int(IDENTITIES - 1);
      if (b >= a) b++;
      const h = rng.int(probes[b]!.length);
      const probe = probes[b]![h]!;
      im.push(fine(a, b * 256 + h, probe));
      if (normalised) iz.push(normalised(im[im.length - 1]!, b, h));
      ic.push(coarseDistance(enrol[a]!, probe));
    }
    return {
      normalised: { genuine: sorted(gz), impostor: sorted(iz) },
      fine: { genuine: sorted(g), impostor: sorted(im) },
      coarse: { genuine: sorted(gc), impostor: sorted(ic) },
    };
  };
  const single = measure(singleEnrol, singleProbes);
  // Each fused probe's cohort statistics, as the server normalises its distances (score-normalisation.ts).
  const normaliser = normaliserFor(protector);
  const probeStats = fusedProbes.map((list) => list.map((probe) => normaliser.stats(probe)));
  const fusedScore = (d: number, probe: number, hold: number): number => {
    const stats = probeStats[probe]![hold]!;
    if (NORM === 'mean') return (d - stats.mean) / COHORT_SCALE;
    if (NORM === 'floor') return (d - stats.mean) / Math.max(stats.sd, COHORT_SCALE);
    return normalisedScore(d, stats);
  };
  const fused = measure(fusedEnrol, fusedProbes, C2F ? fusedHashers : undefined, fusedScore);
  console.log(
    `source ${SOURCE} level ${LEVEL}: ${IDENTITIES} identities × ${HOLDS} holds × ${FRAMES} frames, ${IMPOSTORS} impostor pairs; seed ${SEED}`,
  );
  report('single', single.fine, single.coarse);
  report('fused', fused.fine, fused.coarse);
  {
    // The server's decision at N = 10^6 (FMR 1e-9): normalised scores against the level's own tail fit, and
    // against the committed model's threshold (DEFAULT_NORMALISED_IMPOSTOR_MODEL).
    const z = fused.normalised;
    const fit = fitImpostorTail(z.impostor);
    const own = thresholdForFmr(1e-9, fit);
    const model = thresholdForFmr(1e-9, DEFAULT_NORMALISED_IMPOSTOR_MODEL);
    const miss = (t: number) => pct(1 - countAtMost(z.genuine, t) / z.genuine.length);
    console.log(
      `  normalised: genuine ${spread(z.genuine)}  impostor ${spread(z.impostor)}  fit ${fit.location.toFixed(3)} / ${fit.scale.toFixed(3)}; ` +
        `EER ${pct(equalErrorRate(z))}; stage-2 FNMR@1e-9: own fit (t ${own.toFixed(2)}) ${miss(own)}, model (t ${model.toFixed(2)}) ${miss(model)}`,
    );
    const sds = sorted(probeStats.flat().map((s) => s.sd));
    const q = (f: number) => sds[Math.floor(f * (sds.length - 1))]!.toFixed(4);
    console.log(`  the fused probes' cohort sd: p10 ${q(0.1)}, p50 ${q(0.5)}, p90 ${q(0.9)}`);
  }
  if (RAW_IMPOSTORS > 0) {
    const poses = (PLAN.scales ?? [1]).flatMap((scale) =>
      PLAN.rotations_deg.map((rotation_deg) => ({ rotation_deg, dx_cells: 0, dy_cells: 0, scale })),
    );
    const codes = new Map<PalmFeatures, PalmCode[]>();
    const posed = (f: PalmFeatures) => {
      let list = codes.get(f);
      if (!list) codes.set(f, (list = poses.map((pose) => encodeCode(f, pose))));
      return list;
    };
    const raw = (enrol: PalmCode, probe: PalmFeatures) =>
      Math.min(...posed(probe).map((code) => codeDistance(enrol, code, PLAN.maxShift_cells)));
    const g: number[] = [];
    for (let id = 0; id < IDENTITIES; id++) for (const f of rawProbes[id]!) g.push(raw(rawEnrol[id]!, f));
    const rng = createRng(SEED ^ 0x7a3);
    const im: number[] = [];
    for (let k = 0; k < RAW_IMPOSTORS; k++) {
      const a = rng.int(IDENTITIES);
      let b = rng.int(IDENTITIES - 1);
      if (b >= a) b++;
      im.push(raw(rawEnrol[a]!, rawProbes[b]![rng.int(rawProbes[b]!.length)]!));
    }
    const scores = { genuine: sorted(g), impostor: sorted(im) };
    console.log(
      `unprotected fused (same poses) EER ${pct(equalErrorRate(scores))}  genuine ${spread(scores.genuine)}  impostor ${spread(scores.impostor)}`,
    );
  }
  console.log(
    `scan (3 frames: extract + fuse + protect) ${(scanMs / scans).toFixed(1)} ms; build ${(built / 1000).toFixed(1)} s; ` +
      `refinement${POLISH ? ' + polish' : ''} ${refinedPairs ? (refineMs / refinedPairs).toFixed(2) : 'n/a'} ms per pair (hashers warm after the first pair)`,
  );
}

await main();
