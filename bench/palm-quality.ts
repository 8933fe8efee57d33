/**
 * The capture quality gate (packages/palm/src/quality.ts) on the frames it was tuned for: how many pass, and
 * why the others are refused. `node --import tsx bench/palm-quality.ts [identities]`.
 *
 * - synthetic.ts at its three settings (the demo and the tests send 'medium': every one must pass), and
 *   'medium' frames made worse on purpose: a Gaussian blur of σ 3 px, mean grey brought to 35, washed out;
 * - model A (bench/palm-data/model-a.ts) through the phone camera at each nuisance level, frame by frame and
 *   hold by hold (all three frames pass), with the hard level's worst holds (defocus ≥ 2 px, motion ≥ 3 px)
 *   apart. Model B is the held-out set: the gate is not measured, let alone tuned, on it here.
 */
import { frameQuality } from '../packages/palm/src/quality';
import { createIdentity, renderSample, type SyntheticSetting } from '../packages/palm/src/synthetic';
import { captureSet, drawFrame, drawHold, holdSeed, type NuisanceLevel } from './palm-data/camera';
import { modelA } from './palm-data/model-a';
import { gaussianBlurred } from '../packages/palm/src/frame-blur';

const SIDE = 128;
const SEED = 20261123;
const identities = Number(process.argv[2] ?? 60);
if (!Number.isInteger(identities) || identities < 1 || identities > 10_000) {
  throw new RangeError('identities: a whole number from 1 to 10,000');
}

class Tally {
  frames = 0;
  passed = 0;
  readonly reasons = new Map<string, number>();
  add(frame: Uint8Array): boolean {
    const quality = frameQuality(frame, SIDE);
    this.frames += 1;
    if (quality.passes) this.passed += 1;
    else this.reasons.set(quality.issues[0]!, (this.reasons.get(quality.issues[0]!) ?? 0) + 1);
    return quality.passes;
  }
  toString(): string {
    const share = this.frames === 0 ? 0 : (100 * this.passed) / this.frames;
    const reasons = [...this.reasons].map(([reason, count]) => `${reason} ${count}`).join(', ');
    return `${share.toFixed(1).padStart(5)} % of ${String(this.frames).padStart(5)} pass${reasons ? `; refused: ${reasons}` : ''}`;
  }
}

const gaussianBlur = (frame: Uint8Array, sigma_px: number): Uint8Array =>
  gaussianBlurred(frame, SIDE, sigma_px);

console.log(`synthetic.ts, ${identities} palms × 5 captures (seed ${SEED})`);
const settings: SyntheticSetting[] = ['easy', 'medium', 'hard'];
const synthetic = new Map(settings.map((setting) => [setting, new Tally()]));
const worse = { 'blur σ 3 px': new Tally(), 'mean grey 35': new Tally(), 'washed out': new Tally() };
for (let identity = 0; identity < identities; identity += 1) {
  const palm = createIdentity(SEED, identity);
  for (let sample = 0; sample < 5; sample += 1) {
    for (const setting of settings) synthetic.get(setting)!.add(renderSample(palm, sample, setting, SIDE));
    if (sample > 0) continue;
    const medium = renderSample(palm, sample, 'medium', SIDE);
    const mean = medium.reduce((a, b) => a + b, 0) / medium.length;
    worse['blur σ 3 px'].add(gaussianBlur(medium, 3));
    worse['mean grey 35'].add(Uint8Array.from(medium, (v) => Math.round((v * 35) / mean)));
    worse['washed out'].add(Uint8Array.from(medium, (v) => Math.round(255 - (255 - v) * 0.2)));
  }
}
for (const [setting, tally] of synthetic) console.log(`  ${setting.padEnd(22)} ${tally}`);
for (const [name, tally] of Object.entries(worse)) console.log(`  medium, ${name.padEnd(14)} ${tally}`);

console.log(`\nmodel A through the camera, ${identities} palms × 2 holds × 3 frames`);
for (const level of ['easy', 'medium', 'hard'] as NuisanceLevel[]) {
  const frames = new Tally();
  const worst = new Tally();
  let holds = 0;
  let holdsPassed = 0;
  for (const hold of captureSet(modelA, level, { seed: SEED, identities, holds: 2, frames: 3 })) {
    const seed = holdSeed(SEED, hold.identity, hold.hold);
    const parameters = drawHold(level, seed);
    let all = true;
    hold.frames.forEach((frame, index) => {
      const passed = frames.add(frame);
      all &&= passed;
      if (parameters.defocus_px >= 2 && drawFrame(level, seed, index).motion_px >= 3) worst.add(frame);
    });
    holds += 1;
    if (all) holdsPassed += 1;
  }
  console.log(`  ${level.padEnd(22)} ${frames}`);
  console.log(
    `  ${''.padEnd(22)} holds with all 3 frames passing: ${((100 * holdsPassed) / holds).toFixed(1)} %`,
  );
  if (worst.frames > 0) console.log(`  ${'  defocus ≥ 2, motion ≥ 3'.padEnd(22)} ${worst}`);
}
