/**
 * Copies of a scan's frames as a replay makes them (bench:replay): re-encoded as JPEG, shifted, cropped and
 * stretched back, with sensor noise. Grey 128 × 128 frames in and out.
 */
import { decode, encode } from 'jpeg-js';
import type { Rng } from '../packages/palm/src/random';

const SIDE = 128;

/** The frame as a JPEG of this quality (1..100), decoded back to grey. */
export function jpegRoundTrip(frame: Uint8Array, quality: number): Uint8Array {
  const rgba = new Uint8Array(SIDE * SIDE * 4);
  for (let i = 0; i < frame.length; i++) {
    rgba.fill(frame[i]!, 4 * i, 4 * i + 3);
    rgba[4 * i + 3] = 255;
  }
  const jpeg = encode({ data: rgba, width: SIDE, height: SIDE }, quality).data;
  const { data } = decode(jpeg, { useTArray: true });
  return Uint8Array.from({ length: SIDE * SIDE }, (_, i) => data[4 * i]!);
}

/** The frame moved by (dx, dy) whole pixels, the edge repeated into the strip it uncovers. */
export function shifted(frame: Uint8Array, dx: number, dy: number): Uint8Array {
  const clamp = (v: number) => Math.min(SIDE - 1, Math.max(0, v));
  return Uint8Array.from({ length: SIDE * SIDE }, (_, i) => {
    const x = i % SIDE;
    const y = Math.floor(i / SIDE);
    return frame[clamp(y - dy) * SIDE + clamp(x - dx)]!;
  });
}

/** `margin` pixels cut off every side and the rest stretched back to the full size (bilinear). */
export function cropped(frame: Uint8Array, margin: number): Uint8Array {
  const scale = (SIDE - 2 * margin) / SIDE;
  return Uint8Array.from({ length: SIDE * SIDE }, (_, i) => {
    const sx = margin + ((i % SIDE) + 0.5) * scale - 0.5;
    const sy = margin + (Math.floor(i / SIDE) + 0.5) * scale - 0.5;
    const x0 = Math.min(SIDE - 2, Math.max(0, Math.floor(sx)));
    const y0 = Math.min(SIDE - 2, Math.max(0, Math.floor(sy)));
    const fx = sx - x0;
    const fy = sy - y0;
    const at = (x: number, y: number) => frame[y * SIDE + x]!;
    const top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx;
    const bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx;
    return Math.round(top * (1 - fy) + bottom * fy);
  });
}

/** Gaussian noise of standard deviation `sigma` grey levels added to every pixel. */
export function noisy(frame: Uint8Array, sigma: number, rng: Rng): Uint8Array {
  return frame.map((v) => Math.min(255, Math.max(0, Math.round(v + sigma * rng.normal()))));
}
