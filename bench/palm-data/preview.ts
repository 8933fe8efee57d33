/**
 * A contact sheet of the benchmark's palms, for a person to look at: `node --import tsx
 * bench/palm-data/preview.ts [identities]` writes /tmp/palm-data-preview.png. One row per palm, model A's palms
 * first, then model B's: the whole surface (ROI coordinates −0.5..1.5, the nominal ROI outlined), the surface
 * on the nominal ROI, then two holds' first frames at each nuisance level (easy, medium, hard).
 */
import { writeFileSync } from 'node:fs';

import { captureHold, holdSeed, type NuisanceLevel } from './camera';
import { modelA } from './model-a';
import { modelB } from './model-b';
import type { PalmModel } from './palm-model';
import { contactSheet, encodeGreyPng } from './png';

const SIDE = 128;
const OUTPUT = '/tmp/palm-data-preview.png';
const identities = Number(process.argv[2] ?? 4);
const SEED = 2026;

const toBytes = (values: Float32Array): Uint8Array =>
  Uint8Array.from(values, (v) => Math.min(255, Math.max(0, Math.round(v * 255))));

function row(model: PalmModel, index: number): Uint8Array[] {
  const palm = model.identity(SEED, index);
  const whole = toBytes(palm.surface(0, SIDE));
  // Outline the nominal ROI [0, 1] (pixels 32..95 of the whole surface).
  for (let k = 32; k < 96; k++) {
    for (const [x, y] of [
      [k, 32],
      [k, 95],
      [32, k],
      [95, k],
    ] as const) {
      whole[y * SIDE + x] = 255;
    }
  }
  const detail = palm.surface(0, 2 * SIDE);
  const roi = new Uint8Array(SIDE * SIDE);
  for (let y = 0; y < SIDE; y++) {
    for (let x = 0; x < SIDE; x++)
      roi[y * SIDE + x] = Math.round(255 * Math.min(1, detail[(y + 64) * 2 * SIDE + x + 64]!));
  }
  const frames: Uint8Array[] = [];
  for (const level of ['easy', 'medium', 'hard'] as NuisanceLevel[]) {
    for (let hold = 0; hold < 2; hold++)
      frames.push(captureHold(palm, level, holdSeed(SEED, index, hold), 1)[0]!);
  }
  return [whole, roi, ...frames];
}

const rows: Uint8Array[][] = [];
for (const model of [modelA, modelB]) {
  for (let i = 0; i < identities; i++) rows.push(row(model, i));
}
const sheet = contactSheet(rows, SIDE);
writeFileSync(OUTPUT, encodeGreyPng(sheet.pixels, sheet.width, sheet.height));
console.log(
  `${OUTPUT}: ${identities} palms of model A, then ${identities} of model B; columns: whole surface, ROI surface, ` +
    'easy ×2, medium ×2, hard ×2',
);
