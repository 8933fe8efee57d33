/**
 * The replay guard's measure (decision 025): a live recapture of a palm is never as close to an earlier scan
 * as a copy of that scan's frames (the same frames, re-encoded, shifted or cropped by a few pixels, with some
 * noise). A new scan whose distance to a stored scan of the same person is at most REPLAY_MAX_DISTANCE is a
 * replay.
 *
 * The stored scan is a protected template as enrolment makes one (fused, unaligned). A copy shifted by a
 * pixel is off by a quarter of a code cell (4 ROI pixels), which the search's whole-cell alignments cannot
 * undo, and a whole-cell shift of the responses costs a border column that the sparse Index-of-Max
 * projections spread over a third of the symbols. So the new scan's frames themselves are moved back by up to
 * 3 px on each axis, or un-cropped by 1–3 px a side, and filtered, fused and protected again; the distance is
 * the smallest share of differing symbols between a stored template and any such version (measured: a copy
 * shifted and moved back lands within 0.04 of its original, bench:replay).
 */
import { extractFeatures, type PalmFeatures } from './features';
import { fuseFeatures } from './fusion';
import type { ProtectedTemplate, TemplateProtector } from './protect';
import { symbolMismatches } from './search';

/**
 * The floor (decision 025), from `npm run bench:replay` (24 palms per source, seed 20261126; the worst of the
 * synthetic generator's three settings and of the independent affine model):
 * - two distinct honest scans of one palm: min 0.128, 1 % 0.159, 5 % 0.188, median 0.270 (synthetic easy;
 *   the affine model's min is 0.178); on 2,688 more pairs (`--identities 40 --scans 5 --seed 7`) min 0.122;
 * - copies of a scan (same frames; JPEG q95–q60; shifted 1–3 px; cropped 1–3 px; noise σ 1–4; combinations):
 *   median 0.044, 95 % 0.122, 99 % 0.167, max 0.201.
 * The two overlap, so the floor sides with honest payers: at 0.10 no honest re-scan was refused on any
 * source (0.022 under the smallest honest distance) and 87–97 % of the copies were caught (every exact copy,
 * shift and light re-encode; the misses are the heaviest noise, crops and compound distortions).
 */
export const REPLAY_MAX_DISTANCE = 0.1;

/** Crops undone: pixels cut off each side of a copy before it was stretched back. */
const CROPS_PX = [1, 2, 3];
/** Shifts undone, in pixels on each axis: −3..3, searched coarse (±2) then fine (±1 around the best). */
const MAX_SHIFT_PX = 3;
const COARSE_STEP_PX = 2;
/** How many of the coarse stage's best shifts the fine stage looks around. */
const REFINED = 2;
/**
 * No copy is this far at the nearest coarse shift (one pixel off on each axis at worst: under 0.3 in
 * bench:replay) or unmoved when it was cropped: beyond it the fine stage and the crops are skipped.
 */
const NEAR_DISTANCE = 0.4;

/** The image moved by (dx, dy) whole pixels, the edge repeated into the strip it uncovers. */
export function shiftImage(image: Uint8Array, size: number, dx: number, dy: number): Uint8Array {
  const out = new Uint8Array(size * size);
  for (let y = 0; y < size; y++) {
    const sy = Math.min(size - 1, Math.max(0, y - dy));
    for (let x = 0; x < size; x++) {
      out[y * size + x] = image[sy * size + Math.min(size - 1, Math.max(0, x - dx))]!;
    }
  }
  return out;
}

/**
 * The inverse of cutting `margin` pixels off each side and stretching the rest back: the image shrunk
 * about its centre by (size − 2·margin)/size (bilinear), the edge repeated around it.
 */
export function uncropImage(image: Uint8Array, size: number, margin: number): Uint8Array {
  const scale = size / (size - 2 * margin);
  const out = new Uint8Array(size * size);
  const c = size / 2;
  for (let y = 0; y < size; y++) {
    const sy = Math.min(size - 1, Math.max(0, (y + 0.5 - c) * scale + c - 0.5));
    const y0 = Math.min(size - 2, Math.floor(sy));
    const fy = sy - y0;
    for (let x = 0; x < size; x++) {
      const sx = Math.min(size - 1, Math.max(0, (x + 0.5 - c) * scale + c - 0.5));
      const x0 = Math.min(size - 2, Math.floor(sx));
      const fx = sx - x0;
      const at = (xx: number, yy: number) => image[yy * size + xx]!;
      const top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx;
      const bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx;
      out[y * size + x] = Math.round(top * (1 - fy) + bottom * fy);
    }
  }
  return out;
}

/**
 * A new scan as the guard compares it: its frames (oriented like the stored templates) held privately, and
 * versions of it moved back by a few pixels or un-cropped, each fused again and protected under one key,
 * made only when a comparison asks for them. Lives as long as the request; holds no more than the scan did.
 */
export class ReplayScan {
  readonly keyId: Uint8Array;
  readonly #versions = new Map<string, ProtectedTemplate>();
  // Private fields, not properties: logging or serialising the object shows no frame.
  readonly #protector: Pick<TemplateProtector, 'enrol' | 'keyId'>;
  readonly #frames: readonly Uint8Array[];
  readonly #size: number;

  constructor(
    protector: Pick<TemplateProtector, 'enrol' | 'keyId'>,
    frames: readonly Uint8Array[],
    size: number,
    fused: PalmFeatures,
  ) {
    this.#protector = protector;
    this.#frames = frames;
    this.#size = size;
    this.keyId = protector.keyId;
    this.#versions.set('0,0', protector.enrol(fused));
  }

  /** The scan as fused and protected (shift 0, no crop): what the guard remembers of it. */
  get template(): ProtectedTemplate {
    return this.#versions.get('0,0')!;
  }

  #version(key: string, move: (frame: Uint8Array) => Uint8Array): ProtectedTemplate {
    let template = this.#versions.get(key);
    if (!template) {
      const features = this.#frames.map((frame) => extractFeatures(move(frame), this.#size));
      template = this.#protector.enrol(fuseFeatures(features).features);
      this.#versions.set(key, template);
    }
    return template;
  }

  #shifted(dx: number, dy: number): ProtectedTemplate {
    return this.#version(`${dx},${dy}`, (frame) => shiftImage(frame, this.#size, dx, dy));
  }

  /**
   * The smallest distance (0..1) from any version of this scan to any of the stored templates of its key
   * (others cannot be compared and are skipped), or undefined when there is none. The search stops as soon
   * as a distance is at most `stopAt` (the guard passes its floor: a replay needs no closer figure).
   */
  closestDistance(stored: readonly ProtectedTemplate[], stopAt = -1): number | undefined {
    const comparable = stored.filter((template) => sameKey(template.keyId, this.keyId));
    if (comparable.length === 0) return undefined;
    const closest = (template: ProtectedTemplate) =>
      Math.min(...comparable.map((s) => distance(s, template)));
    const unmoved = closest(this.template);
    let best = unmoved;
    // Shifts: a coarse grid, then every shift next to its best few points (a copy's distance falls steadily
    // towards the shift that undoes it).
    const coarse: { dx: number; dy: number; d: number }[] = [];
    for (let dy = -COARSE_STEP_PX; dy <= COARSE_STEP_PX; dy += COARSE_STEP_PX) {
      for (let dx = -COARSE_STEP_PX; dx <= COARSE_STEP_PX; dx += COARSE_STEP_PX) {
        if (best <= stopAt) return best;
        const d = dx === 0 && dy === 0 ? unmoved : closest(this.#shifted(dx, dy));
        coarse.push({ dx, dy, d });
        best = Math.min(best, d);
      }
    }
    coarse.sort((a, b) => a.d - b.d);
    for (const centre of coarse.slice(0, REFINED)) {
      if (centre.d > NEAR_DISTANCE) break;
      for (let dy = centre.dy - 1; dy <= centre.dy + 1; dy++) {
        for (let dx = centre.dx - 1; dx <= centre.dx + 1; dx++) {
          if (best <= stopAt) return best;
          if (Math.abs(dx) > MAX_SHIFT_PX || Math.abs(dy) > MAX_SHIFT_PX) continue;
          best = Math.min(best, closest(this.#shifted(dx, dy)));
        }
      }
    }
    if (unmoved > NEAR_DISTANCE) return best;
    for (const margin of CROPS_PX) {
      if (best <= stopAt) return best;
      const uncropped = this.#version(`crop ${margin}`, (frame) => uncropImage(frame, this.#size, margin));
      best = Math.min(best, closest(uncropped));
    }
    return best;
  }
}

/** Share (0..1) of differing symbols between two templates of one key and shape. */
export function distance(a: ProtectedTemplate, b: ProtectedTemplate): number {
  if (!sameKey(a.keyId, b.keyId)) throw new RangeError('templates were protected with different keys');
  if (a.words.length !== b.words.length || a.symbolBits !== b.symbolBits || a.hashes !== b.hashes) {
    throw new RangeError('templates have different shapes');
  }
  return symbolMismatches(a.words, 0, b.words, 0, a.words.length, a.symbolBits) / a.hashes;
}

/** Whether a distance is that of a replay (at most the floor). */
export function isReplayDistance(d: number): boolean {
  return d <= REPLAY_MAX_DISTANCE;
}

function sameKey(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
