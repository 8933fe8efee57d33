/**
 * Stage 1 (the coarse prefix's shortlist and the cascade's first passes) under many sets of coarse
 * alignments at once, model A only (the frames bench/palm-tune.ts keeps in its --cache folder; run it first
 * with the same --level, --identities and --seed). Every fused payment scan's coarse prefix is hashed once
 * under a dense grid of poses (rotations, scales and shifts); a set of coarse alignments is a subset of it,
 * so each set's stage 1 is measured on the same probes without hashing again.
 *
 *   node --import tsx bench/palm-stage1.ts --cache /tmp/palm-tune [--level medium] [--identities 200]
 *        [--impostors 20000] [--protection '{"coarseSmooth_cells":1}'] [--sets base,wide] [--poses]
 *        [--combos 'lead set,head set,whole set,lead divisor,head divisor[,refine set,refine keep];…']
 *        [--first-protection '{…}'] [--lead-words 8] [--head-words 16]
 *
 * Per set: stage 1's genuine miss at the shortlists 256 and 1,024 of N = 10^6 (the coarse distance that
 * many of 10^6 impostors reach, from the normal fit of their tail as bench/palm-tune.ts does, and counted
 * among the impostors as bench/palm-cascade.ts does), and what the cascade's first passes add (each block
 * keeping 1/CASCADE_LEAD_KEEP_DIVISOR by the lead and 1/CASCADE_KEEP_DIVISOR by the head, as
 * palm-cascade.ts `cascadeStage1Misses`). `--poses`: the pose (of the dense grid) at which each mate the
 * base set loses at 1,024 is closest, and whether the whole grid keeps it. `--first-protection`: in the
 * combos, the leads and heads are read from a coarse prefix made with these parameters on top of
 * `--protection` (as if a template stored one apart for the first passes), the whole prefix from the other.
 * A combo's refinement: the `refine keep` of 10^6 entries nearest by the whole prefix are compared again
 * under the refine set, and the shortlist (1,024) is taken by that distance.
 */
import { existsSync, readFileSync } from 'node:fs';
import { extractFeatures } from '../packages/palm/src/features';
import { fuseFeatures } from '../packages/palm/src/fusion';
import {
  DEFAULT_PROTECTION,
  TemplateProtector,
  type AlignmentPlan,
  type ProtectedTemplate,
} from '../packages/palm/src/protect';
import { createRng } from '../packages/palm/src/random';
import {
  CASCADE_KEEP_DIVISOR,
  CASCADE_LEAD_KEEP_DIVISOR,
  cascadeHeadWords,
  cascadeLeadWords,
  normalQuantile,
  symbolMismatches,
} from '../packages/palm/src/search';
import { countAtMost, fitImpostorTail, sorted } from './palm-scores';

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? fallback : process.argv[i + 1]!;
}

const LEVEL = option('level', 'medium');
const IDENTITIES = Number(option('identities', '200'));
const HOLDS = 3;
const FRAMES = 3;
const SEED = Number(option('seed', '7'));
const IMPOSTORS = Number(option('impostors', '20000'));

/**
 * Which passes of the cascade lose a mate whose (lead, head, whole prefix) distances are `d`, given the
 * impostors' distances `im` (palm-cascade.ts cascadeStage1Misses): the lead pass keeps 1/`leadDivisor` of a
 * block, the head pass 1/`headDivisor`, and the whole prefix loses a mate that 1,024 of 10^6 entries kept
 * beat. `firstPasses`: lost by the lead or the head; `any`: lost by one of the three.
 */
function cascadeLosses(
  im: readonly (readonly number[])[],
  leadDivisor: number,
  headDivisor: number,
): (d: readonly number[]) => { firstPasses: boolean; any: boolean } {
  const leads = sorted(im.map((d) => d[0]!));
  const leadCut = leads[Math.ceil(IMPOSTORS / leadDivisor) - 1]!;
  const headsPassed = sorted(im.filter((d) => d[0]! <= leadCut).map((d) => d[1]!));
  const headCut = headsPassed[Math.ceil(IMPOSTORS / headDivisor) - 1] ?? Infinity;
  const passedWhole = sorted(im.filter((d) => d[0]! <= leadCut && d[1]! <= headCut).map((d) => d[2]!));
  return (d) => {
    const leadLost = countAtMost(leads, d[0]!) / IMPOSTORS >= 1 / leadDivisor;
    const headLost = !leadLost && countAtMost(headsPassed, d[1]!) / IMPOSTORS >= 1 / headDivisor;
    const wholeLost = !leadLost && !headLost && (1e6 * countAtMost(passedWhole, d[2]!)) / IMPOSTORS >= 1024;
    return { firstPasses: leadLost || headLost, any: leadLost || headLost || wholeLost };
  };
}
const SIZE = 128;
const KEY = Uint8Array.from({ length: 32 }, (_, i) => (i * 29 + 5) & 0xff);

/** The dense grid of poses every probe's coarse prefix is hashed under. */
const ROTATIONS = [-16, -12, -8, -4, 0, 4, 8, 12, 16];
const SCALES = [0.92, 1, 1.08];
const SHIFT = 2;
const SHIFTS: [number, number][] = [];
for (let dy = -SHIFT; dy <= SHIFT; dy++) for (let dx = -SHIFT; dx <= SHIFT; dx++) SHIFTS.push([dx, dy]);

interface Pose {
  rotation: number;
  scale: number;
  dx: number;
  dy: number;
}
const POSES: Pose[] = SCALES.flatMap((scale) =>
  ROTATIONS.flatMap((rotation) => SHIFTS.map(([dx, dy]) => ({ rotation, scale, dx, dy }))),
);

const diagonals = (d: number): [number, number][] => [
  [0, 0],
  [-d, -d],
  [-d, d],
  [d, -d],
  [d, d],
];
const cross = (d: number): [number, number][] => [
  [0, 0],
  [-d, 0],
  [d, 0],
  [0, -d],
  [0, d],
];

/** Sets of coarse alignments: rotations × scales × shifts (each a subset of the dense grid). */
const SETS: Record<string, { rotations: number[]; scales: number[]; shifts: [number, number][] }> = {
  base: { rotations: [-8, 0, 8], scales: [1], shifts: diagonals(1) },
  cross1: { rotations: [-8, 0, 8], scales: [1], shifts: cross(1) },
  cross2: { rotations: [-8, 0, 8], scales: [1], shifts: cross(2) },
  diag2: { rotations: [-8, 0, 8], scales: [1], shifts: diagonals(2) },
  r12: { rotations: [-12, 0, 12], scales: [1], shifts: diagonals(1) },
  r4x4: { rotations: [-12, -4, 4, 12], scales: [1], shifts: diagonals(1) },
  r5: { rotations: [-16, -8, 0, 8, 16], scales: [1], shifts: [[0, 0], ...diagonals(1).slice(1, 3)] },
  r3s1: { rotations: [-8, 0, 8], scales: [1], shifts: [[0, 0]] },
  r3c9: {
    rotations: [-8, 0, 8],
    scales: [1],
    shifts: [...diagonals(1), ...cross(2).slice(1)],
  },
  r3sq9: {
    rotations: [-8, 0, 8],
    scales: [1],
    shifts: [...diagonals(1), ...cross(1).slice(1)],
  },
  r5d: { rotations: [-16, -8, 0, 8, 16], scales: [1], shifts: diagonals(1) },
  scale3: { rotations: [-8, 0, 8], scales: [0.92, 1, 1.08], shifts: diagonals(1) },
  r3x3: {
    rotations: [-8, 0, 8],
    scales: [1],
    shifts: [
      [0, 0],
      [-1, -1],
      [1, 1],
    ],
  },
  r3x3b: {
    rotations: [-8, 0, 8],
    scales: [1],
    shifts: [
      [0, 0],
      [-1, 1],
      [1, -1],
    ],
  },
  d2r12: { rotations: [-12, 0, 12], scales: [1], shifts: diagonals(2) },
  r4d2: { rotations: [-12, -4, 4, 12], scales: [1], shifts: diagonals(2) },
  r2d1: { rotations: [-4, 4], scales: [1], shifts: diagonals(1) },
  r3c1x: {
    rotations: [-8, 0, 8],
    scales: [1],
    shifts: [
      [0, 0],
      [-1, -1],
      [1, 1],
      [-2, 1],
      [1, -2],
    ],
  },
  rotAll: { rotations: ROTATIONS, scales: [1], shifts: diagonals(1) },
  shiftAll: { rotations: [-8, 0, 8], scales: [1], shifts: SHIFTS },
  scaleAll: { rotations: [-8, 0, 8], scales: SCALES, shifts: diagonals(1) },
  r2s1: { rotations: [-4, 4], scales: [1], shifts: [[0, 0]] },
  r3x2: {
    rotations: [-8, 0, 8],
    scales: [1],
    shifts: [
      [-1, -1],
      [1, 1],
    ],
  },
  r2x3: {
    rotations: [-4, 4],
    scales: [1],
    shifts: [
      [0, 0],
      [-1, 1],
      [1, -1],
    ],
  },
  r3sq: { rotations: [-8, 0, 8], scales: [1], shifts: [...diagonals(1), ...cross(1).slice(1)] },
  r4sq: { rotations: [-12, -4, 4, 12], scales: [1], shifts: [...diagonals(1), ...cross(1).slice(1)] },
  r4c2: { rotations: [-12, -4, 4, 12], scales: [1], shifts: [...diagonals(1), ...cross(2).slice(1)] },
  c2: { rotations: [-8, 0, 8], scales: [1], shifts: cross(2).slice(1) },
  dd2: { rotations: [-8, 0, 8], scales: [1], shifts: diagonals(2).slice(1) },
  c1: { rotations: [-8, 0, 8], scales: [1], shifts: cross(1).slice(1) },
  r16: { rotations: [-16, 16], scales: [1], shifts: diagonals(1) },
  r4: { rotations: [-4, 4], scales: [1], shifts: diagonals(1) },
  sc: { rotations: [-8, 0, 8], scales: [0.92, 1.08], shifts: [[0, 0]] },
  r16c: { rotations: [-16, 16], scales: [1], shifts: [[0, 0]] },
  r12d: { rotations: [-12, 12], scales: [1], shifts: diagonals(1) },
  r16x: { rotations: [-16, 16], scales: [1], shifts: cross(1) },
  all: { rotations: ROTATIONS, scales: SCALES, shifts: SHIFTS },
};

/** A set by name; `a+b` is the union of sets a and b. */
function setIndices(name: string): number[] {
  return [...new Set(name.split('+').flatMap((part) => indicesOf(SETS[part]!)))].sort((x, y) => x - y);
}

function indicesOf(set: (typeof SETS)[string]): number[] {
  const out: number[] = [];
  POSES.forEach((p, i) => {
    if (
      set.rotations.includes(p.rotation) &&
      set.scales.includes(p.scale) &&
      set.shifts.some(([dx, dy]) => dx === p.dx && dy === p.dy)
    ) {
      out.push(i);
    }
  });
  return out;
}

function allHolds(): Uint8Array[][][] {
  const file = `${option('cache', '/tmp/palm-tune')}/palm-tune-camera-${LEVEL}-${IDENTITIES}x${HOLDS}-${SEED}.bin`;
  if (!existsSync(file)) throw new Error(`no frames at ${file}: run bench/palm-tune.ts with --cache first`);
  const bytes = new Uint8Array(readFileSync(file));
  const frameBytes = SIZE * SIZE;
  return Array.from({ length: IDENTITIES }, (_, id) =>
    Array.from({ length: HOLDS }, (_, hold) =>
      Array.from({ length: FRAMES }, (_, f) => {
        const at = ((id * HOLDS + hold) * FRAMES + f) * frameBytes;
        return bytes.subarray(at, at + frameBytes);
      }),
    ),
  );
}

const pct = (x: number) => `${(100 * x).toFixed(2)} %`;

function main(): void {
  const holds = allHolds();
  const protector = new TemplateProtector(KEY, {
    ...DEFAULT_PROTECTION,
    ...JSON.parse(option('protection', '{}')),
  });
  const plan: AlignmentPlan = {
    rotations_deg: [0],
    maxShift_cells: 0,
    coarseRotations_deg: ROTATIONS,
    coarseScales: SCALES,
    coarseShifts: SHIFTS,
  };
  // --first-protection: the cascade's first passes (leads and heads) read a coarse prefix of their own,
  // made with these parameters (a template that would store it apart from the one stage 2 compares).
  const firstProtector = process.argv.includes('--first-protection')
    ? new TemplateProtector(KEY, {
        ...DEFAULT_PROTECTION,
        ...JSON.parse(option('protection', '{}')),
        ...JSON.parse(option('first-protection', '{}')),
      })
    : protector;
  const enrol: ProtectedTemplate[] = [];
  const firstEnrol: ProtectedTemplate[] = [];
  /** probes[id][hold − 1]: the coarse prefixes of every pose of POSES, back to back. */
  const probes: Uint32Array[][] = [];
  const firstProbes: Uint32Array[][] = [];
  for (let id = 0; id < IDENTITIES; id++) {
    const list: Uint32Array[] = [];
    const firstList: Uint32Array[] = [];
    for (let hold = 0; hold < HOLDS; hold++) {
      const fused = fuseFeatures(holds[id]![hold]!.map((frame) => extractFeatures(frame, SIZE))).features;
      const at = [{ r: 0, s: 0, dx: 0, dy: 0 }];
      if (hold === 0) {
        enrol.push(protector.enrol(fused));
        firstEnrol.push(firstProtector === protector ? enrol.at(-1)! : firstProtector.enrol(fused));
      } else {
        list.push(protector.prober(fused, plan).probe(at).coarse);
        firstList.push(
          firstProtector === protector ? list.at(-1)! : firstProtector.prober(fused, plan).probe(at).coarse,
        );
      }
    }
    probes.push(list);
    firstProbes.push(firstList);
  }
  const cw = protector.coarseWords;
  const leadWords = Number(option('lead-words', String(cascadeLeadWords(cw))));
  const headWords = Number(option('head-words', String(cascadeHeadWords(cw))));
  const bits = protector.symbolBits;
  const mates: [number, number][] = [];
  for (let id = 0; id < IDENTITIES; id++) for (let h = 0; h < HOLDS - 1; h++) mates.push([id, h]);
  const rng = createRng(SEED ^ 0x51);
  const impostors: [number, number, number][] = Array.from({ length: IMPOSTORS }, () => {
    const a = rng.int(IDENTITIES);
    let b = rng.int(IDENTITIES - 1);
    if (b >= a) b++;
    return [a, b, rng.int(HOLDS - 1)];
  });
  const distances = (stored: Uint32Array, probe: Uint32Array, set: number[]) => {
    let lead = Infinity;
    let head = Infinity;
    let whole = Infinity;
    for (const a of set) {
      const at = a * cw;
      lead = Math.min(lead, symbolMismatches(stored, 0, probe, at, leadWords, bits));
      head = Math.min(head, symbolMismatches(stored, 0, probe, at, headWords, bits));
      whole = Math.min(whole, symbolMismatches(stored, 0, probe, at, cw, bits));
    }
    return [lead, head, whole] as const;
  };
  const wanted = option('sets', Object.keys(SETS).join(',')).split(',').filter(Boolean);
  console.log(
    `level ${LEVEL}: ${IDENTITIES} identities, ${mates.length} mated fused scans, ${IMPOSTORS} impostor pairs; ` +
      `protection ${option('protection', '{}')}; cascade lead 1/${CASCADE_LEAD_KEEP_DIVISOR}, head 1/${CASCADE_KEEP_DIVISOR}`,
  );
  let baseLost: number[] = [];
  for (const name of wanted) {
    const set = indicesOf(SETS[name]!);
    const im = impostors.map(([a, b, h]) => distances(enrol[a]!.words, probes[b]![h]!, set));
    const ge = mates.map(([id, h]) => distances(enrol[id]!.words, probes[id]![h]!, set));
    const hashes = protector.parameters.coarseHashes;
    const wholeIm = sorted(im.map((d) => d[2] / hashes));
    const fit = fitImpostorTail(wholeIm);
    const cutAt = (n: number) => fit.location + fit.scale * normalQuantile(n / 1e6);
    const missFit = (n: number) => ge.filter((d) => d[2] / hashes > cutAt(n)).length / ge.length;
    // Counted: lost when ≥ n of 10^6 impostors are at or below the mate's distance.
    const lostCounted = (d: readonly number[], n: number) =>
      (1e6 * countAtMost(wholeIm, d[2]! / hashes)) / wholeIm.length >= n;
    // The cascade's first passes (palm-cascade.ts cascadeStage1Misses).
    const cascadeLoses = cascadeLosses(im, CASCADE_LEAD_KEEP_DIVISOR, CASCADE_KEEP_DIVISOR);
    let first = 0;
    let withCascade = 0;
    let without = 0;
    const lost: number[] = [];
    ge.forEach((d, m) => {
      const w = lostCounted(d, 1024);
      if (w) {
        without++;
        lost.push(m);
      }
      const { firstPasses, any } = cascadeLoses(d);
      if (firstPasses) first++;
      if (any) withCascade++;
    });
    if (name === 'base') baseLost = lost;
    console.log(
      `${name.padEnd(7)} ${String(set.length).padStart(3)} alignments: miss @256 ${pct(missFit(256))}  ` +
        `@1024 ${pct(missFit(1024))} (fit), ${pct(without / ge.length)} (counted); with the cascade ` +
        `${pct(withCascade / ge.length)} (first passes lose ${pct(first / ge.length)}, add ` +
        `${pct(Math.max(0, withCascade - without) / ge.length)}); impostor fit ${fit.location.toFixed(4)} / ${fit.scale.toFixed(4)}; ` +
        `genuine mean ${(ge.reduce((s, d) => s + d[2], 0) / ge.length / hashes).toFixed(4)}`,
    );
  }
  // Cascades: the lead and head passes under one set, the whole prefix (the shortlist) under another.
  const combos = option('combos', '');
  for (const spec of combos ? combos.split(';') : []) {
    const [leadName, headName, wholeName, leadDiv, headDiv, refineName, refineKeep] = spec.split(',');
    const a = setIndices(leadName!);
    const hs = setIndices(headName!);
    const b = setIndices(wholeName!);
    const r = refineName ? setIndices(refineName) : null;
    const ld = Number(leadDiv ?? CASCADE_LEAD_KEEP_DIVISOR);
    const hd = Number(headDiv ?? CASCADE_KEEP_DIVISOR);
    const hashes = protector.parameters.coarseHashes;
    const pair = (x: number, y: number, h: number) => {
      const lead = distances(firstEnrol[x]!.words, firstProbes[y]![h]!, a)[0];
      const head = distances(firstEnrol[x]!.words, firstProbes[y]![h]!, hs)[1];
      const whole = distances(enrol[x]!.words, probes[y]![h]!, b)[2];
      const refined = r ? distances(enrol[x]!.words, probes[y]![h]!, r)[2] : whole;
      return [lead, head, whole, refined] as const;
    };
    const im = impostors.map(([x, y, h]) => pair(x, y, h));
    const ge = mates.map(([id, h]) => pair(id, id, h));
    const wholeIm = sorted(im.map((d) => d[2] / hashes));
    const fit = fitImpostorTail(wholeIm);
    const cut = fit.location + fit.scale * normalQuantile(1024 / 1e6);
    const cascadeLoses = cascadeLosses(im, ld, hd);
    // The refinement: the `refineKeep` of 10^6 entries nearest by the whole prefix under `wholeName` are
    // compared again under `refineName`, and the shortlist is the 1,024 nearest of them by that distance
    // (only the impostors the refinement compares compete with the mate there).
    const wholeImCounts = sorted(im.map((d) => d[2]!));
    const keepCut = wholeImCounts[Math.ceil((Number(refineKeep) / 1e6) * IMPOSTORS) - 1] ?? Infinity;
    const refinedIm = sorted(im.filter((d) => d[2]! <= keepCut).map((d) => d[3]!));
    const refinedLost = (d: readonly number[]) =>
      r !== null &&
      ((1e6 * countAtMost(wholeImCounts, d[2]!)) / IMPOSTORS >= Number(refineKeep) ||
        (1e6 * countAtMost(refinedIm, d[3]!)) / IMPOSTORS >= 1024);
    let first = 0;
    let total = 0;
    let shortlistOnly = 0;
    for (const d of ge) {
      const { firstPasses, any } = cascadeLoses(d);
      if (d[2] / hashes > cut) shortlistOnly++;
      if (firstPasses) first++;
      if (r ? firstPasses || refinedLost(d) : any) total++;
    }
    const refinement = r ? `, refined ${refineName} (${r.length}) on ${refineKeep} of 10^6` : '';
    console.log(
      `combo lead ${leadName} (${a.length}) 1/${ld}, head ${headName} (${hs.length}) 1/${hd}, whole ${wholeName} (${b.length})${refinement}: first passes lose ${pct(first / ge.length)}, ` +
        `stage 1 loses ${pct(total / ge.length)} (counted); shortlist alone ${pct(shortlistOnly / ge.length)} (fit)`,
    );
  }
  if (process.argv.includes('--poses')) {
    const all = POSES.map((_, i) => i);
    for (const m of baseLost) {
      const [id, h] = mates[m]!;
      let best = Infinity;
      let at = 0;
      for (const a of all) {
        const d = symbolMismatches(enrol[id]!.words, 0, probes[id]![h]!, a * cw, cw, bits);
        if (d < best) {
          best = d;
          at = a;
        }
      }
      const base = distances(enrol[id]!.words, probes[id]![h]!, indicesOf(SETS.base!))[2];
      const p = POSES[at]!;
      console.log(
        `  lost mate id ${id} hold ${h + 1}: base ${(base / 512).toFixed(4)}, best pose rot ${p.rotation} scale ${p.scale} shift ${p.dx},${p.dy}: ${(best / 512).toFixed(4)}`,
      );
    }
  }
}

main();
