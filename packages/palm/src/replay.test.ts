import { describe, expect, it } from 'vitest';
import { extractFeatures } from './features';
import { fuseFeatures } from './fusion';
import { createRng } from './random';
import { TemplateProtector } from './protect';
import {
  distance,
  isReplayDistance,
  REPLAY_MAX_DISTANCE,
  ReplayScan,
  shiftImage,
  uncropImage,
} from './replay';
import { createIdentity, renderSample } from './synthetic';

const SIZE = 128;
const protector = new TemplateProtector(Uint8Array.from({ length: 32 }, (_, i) => 7 * i + 3));
const other = new TemplateProtector(Uint8Array.from({ length: 32 }, (_, i) => 11 * i + 1));
const palm = createIdentity(31_337, 4);
const framesOf = (samples: number[]) => samples.map((s) => renderSample(palm, s, 'medium', SIZE));
const scanOf = (frames: Uint8Array[], key = protector) =>
  new ReplayScan(key, frames, SIZE, fuseFeatures(frames.map((f) => extractFeatures(f, SIZE))).features);

/** `margin` pixels cut off each side and the rest stretched back to the full size (nearest pixel). */
function cropped(frame: Uint8Array, margin: number): Uint8Array {
  const scale = (SIZE - 2 * margin) / SIZE;
  return frame.map((_, i) => {
    const x = Math.round(margin + ((i % SIZE) + 0.5) * scale - 0.5);
    const y = Math.round(margin + (Math.floor(i / SIZE) + 0.5) * scale - 0.5);
    return frame[y * SIZE + x]!;
  });
}

describe('the replay guard’s measure', () => {
  const original = framesOf([0, 1, 2]);
  const stored = scanOf(original).template;

  it('finds the same frames at distance 0, and a copy moved by up to 3 px or cropped within the floor', () => {
    expect(scanOf(original).closestDistance([stored])).toBe(0);
    const rng = createRng(9);
    const noisy = original.map((f) =>
      f.map((v) => Math.min(255, Math.max(0, Math.round(v + 2 * rng.normal())))),
    );
    expect(scanOf(noisy).closestDistance([stored])).toBeLessThanOrEqual(REPLAY_MAX_DISTANCE);
    for (const [dx, dy] of [
      [1, 0],
      [-2, 1],
      [3, -3],
    ] as const) {
      const moved = original.map((f) => shiftImage(f, SIZE, dx, dy));
      // Unmoved, the copy is far off: what the search's whole-cell alignment would leave.
      expect(distance(stored, scanOf(moved).template)).toBeGreaterThan(REPLAY_MAX_DISTANCE);
      expect(scanOf(moved).closestDistance([stored])).toBeLessThanOrEqual(REPLAY_MAX_DISTANCE);
    }
    const crop = original.map((f) => cropped(f, 2));
    expect(scanOf(crop).closestDistance([stored])).toBeLessThanOrEqual(REPLAY_MAX_DISTANCE);
  });

  it('keeps a fresh capture of the same palm above the floor', () => {
    const fresh = scanOf(framesOf([3, 4, 5]));
    const closest = fresh.closestDistance([stored, scanOf(framesOf([6, 7, 8])).template]);
    expect(closest).toBeGreaterThan(REPLAY_MAX_DISTANCE);
    expect(isReplayDistance(closest!)).toBe(false);
  });

  it('skips templates of another key, which cannot be compared', () => {
    const elsewhere = scanOf(original, other).template;
    expect(scanOf(original).closestDistance([elsewhere])).toBeUndefined();
    expect(scanOf(original).closestDistance([])).toBeUndefined();
    expect(scanOf(original).closestDistance([elsewhere, stored])).toBe(0);
    expect(() => distance(stored, elsewhere)).toThrow(RangeError);
  });

  it('calls a distance a replay up to the floor and not beyond', () => {
    expect(isReplayDistance(0)).toBe(true);
    expect(isReplayDistance(REPLAY_MAX_DISTANCE)).toBe(true);
    expect(isReplayDistance(REPLAY_MAX_DISTANCE + 0.001)).toBe(false);
  });

  it('moves an image by whole pixels with its edge repeated, and undoes a centred crop', () => {
    const image = Uint8Array.from({ length: SIZE * SIZE }, (_, i) => (i * 7) % 251);
    const moved = shiftImage(image, SIZE, 2, -1);
    expect(moved[10 * SIZE + 10]).toBe(image[11 * SIZE + 8]);
    // The strips it uncovers repeat the edge: the left two columns and the bottom row.
    expect([moved[10 * SIZE], moved[10 * SIZE + 1]]).toEqual([image[11 * SIZE], image[11 * SIZE]]);
    expect(moved[SIZE * SIZE - 1]).toBe(image[SIZE * SIZE - 3]);
    expect(shiftImage(image, SIZE, 0, 0)).toEqual(image);
    expect(uncropImage(image, SIZE, 0)).toEqual(image);
    // A smooth ramp cropped and stretched back, then un-cropped, is the ramp again (inside the margin).
    const ramp = Uint8Array.from({ length: SIZE * SIZE }, (_, i) => 40 + (i % SIZE));
    const back = uncropImage(cropped(ramp, 3), SIZE, 3);
    for (const x of [10, 64, 117])
      expect(Math.abs(back[64 * SIZE + x]! - ramp[64 * SIZE + x]!)).toBeLessThanOrEqual(1);
  });

  it('holds its frames privately: serialising the scan shows none of them', () => {
    const text = JSON.stringify(scanOf(original));
    expect(text.length).toBeLessThan(2000);
    expect(Object.values(scanOf(original))).not.toContain(original);
  });
});
