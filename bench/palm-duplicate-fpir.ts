/**
 * The false-positive identification rate of a registration's duplicate check, on one palm population
 * (decision 042): a gallery of G palms, then M scans of strangers searched as palm-service.ts's duplicate
 * check searches (the whole plan, the closest two polished, scores normalised against the probe's cohort)
 * and decided at a target FPIR of 1e-3 for a gallery of G. Each scan is three captures of a palm fused.
 *
 *   node --import tsx bench/palm-duplicate-fpir.ts GALLERY STRANGERS POPULATION [SEED]
 *
 * POPULATION: `raw` (synthetic.ts palms as drawn, medium setting, as the browser tests send them),
 * `raw-mirrored` (the same mirrored: left hands from the guide box), or MODEL-LEVEL (`A-medium`, `B-easy`,
 * ...: a model of bench/palm-data through the camera model). Without SEED, the palms are drawn afresh.
 */
import { randomInt } from 'node:crypto';
import { extractFeatures, type PalmFeatures } from '../packages/palm/src/features';
import { mixSeed } from '../packages/palm/src/random';
import { coarseGridOf, TemplateProtector } from '../packages/palm/src/protect';
import { mirroredFrame } from '../packages/palm/src/roi';
import {
  normalisedDecisionPolicy,
  normaliseResult,
  normaliserFor,
} from '../packages/palm/src/score-normalisation';
import { decide, galleryShapeOf, refineResult } from '../packages/palm/src/search';
import { createIdentity, renderSample } from '../packages/palm/src/synthetic';
import { WasmPalmGallery } from '../packages/palm/src/wasm-search';
import type { NuisanceLevel } from './palm-data/camera';
import { fuseScan, Hold, palmOf, type ModelName } from './palm-capture';

const GALLERY = Number(process.argv[2] ?? 300);
const STRANGERS = Number(process.argv[3] ?? 1500);
const POPULATION = process.argv[4] ?? 'raw-mirrored';
const SEED = process.argv[5] === undefined ? randomInt(1, 2 ** 31) : Number(process.argv[5]);
const SIZE = 128;
const KEY = Uint8Array.from({ length: 32 }, (_, i) => (i * 41 + 7) & 0xff);

/** Palm `i`'s scan, or undefined when its frames do not agree (the server refuses it). */
function scanOf(i: number): PalmFeatures | undefined {
  if (POPULATION === 'raw' || POPULATION === 'raw-mirrored') {
    const palm = createIdentity(mixSeed(SEED, i), 0);
    let frames = [100, 101, 102].map((s) => renderSample(palm, s, 'medium', SIZE));
    if (POPULATION === 'raw-mirrored') frames = frames.map((frame) => mirroredFrame(frame, SIZE));
    return fuseScan(frames.map((frame) => extractFeatures(frame, SIZE)));
  }
  const [model, level] = POPULATION.split('-') as [ModelName, NuisanceLevel];
  const hold = new Hold(palmOf(model, SEED, i), level, mixSeed(SEED, i, 0x401d), 3);
  return fuseScan([0, 1, 2].map((f) => hold.features(f)));
}

const protector = new TemplateProtector(KEY);
const normaliser = normaliserFor(protector);
let gallery: WasmPalmGallery | undefined;
let next = 0;
while ((gallery?.size ?? 0) < GALLERY) {
  const scan = scanOf(next++);
  if (!scan) continue;
  const template = protector.enrol(scan);
  gallery ??= new WasmPalmGallery(galleryShapeOf(template));
  gallery.add(`palm-${next}`, template);
}
const policy = normalisedDecisionPolicy({ gallerySize: GALLERY, targetFpir: 1e-3 });
let matched = 0;
let searched = 0;
while (searched < STRANGERS) {
  const scan = scanOf(next++);
  if (!scan) continue;
  searched++;
  const probe = protector.probe(scan);
  const hasher = protector.prober(scan);
  const found = gallery!.search(probe);
  const result = { ...found, ...refineResult(found, gallery!, hasher, coarseGridOf(hasher.plan)) };
  if (decide([normaliseResult(result, normaliser.stats(probe))], policy).outcome === 'match') matched++;
}
console.log(
  `${POPULATION}, seed ${SEED}: ${matched} of ${STRANGERS} strangers' scans matched someone in a gallery of ` +
    `${GALLERY} (${((matched / STRANGERS) * 100).toFixed(2)} %; target 0.10 %, threshold ${policy.threshold.toFixed(3)})`,
);
