import { PALM_ROI_SIZE, PALM_SCAN_FRAMES } from '@hasta/contracts/palm';
import type { Hand } from '@hasta/contracts/palm';

import { bytesToBase64, judgeLook, mostFrequent } from './palm-frame';
import type { PalmQuality } from './palm-frame';

/**
 * The scanner's demo mode (spec §2.12 "a demo mode simulates success after 2 s"): no camera, frames drawn by
 * the synthetic palm generator of @hasta/palm. Each device has its own demo person: a random seed kept in
 * localStorage (a number that picks synthetic creases, not biometric data), identity 0 its left hand and 1
 * its right. Each frame is a different random capture (sample) of that palm.
 */
export const DEMO_SEED_STORAGE_KEY = 'palmDemoSeed';

const DEMO_IDENTITY: Readonly<Record<Hand, number>> = { left: 0, right: 1 };

function randomUint32(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0]!;
}

/** This device's demo seed, made on first use. Without storage it lasts for this page only. */
let pageSeed: number | null = null;
export function demoSeed(): number {
  try {
    const stored = window.localStorage.getItem(DEMO_SEED_STORAGE_KEY);
    if (stored !== null && /^\d{1,10}$/.test(stored) && Number(stored) <= 0xffff_ffff) return Number(stored);
    const seed = randomUint32();
    window.localStorage.setItem(DEMO_SEED_STORAGE_KEY, String(seed));
    return seed;
  } catch {
    pageSeed ??= randomUint32();
    return pageSeed;
  }
}

/** Draws of the demo palm tried per frame of a scan before the demo gives up. */
export const DEMO_DRAWS_PER_FRAME = 8;

/** The demo's draws kept failing the quality gate: `reason` is what failed most often. */
export class DemoGateError extends Error {
  override readonly name = 'DemoGateError';
  constructor(readonly reason: PalmQuality | null) {
    super(`demo frames failed the quality gate (${reason ?? 'unknown'})`);
  }
}

/**
 * PALM_SCAN_FRAMES frames of this device's demo palm for `hand`, base64 as the scan carries them. Each is a
 * new capture that must pass the camera's checks (`judgeLook`, the same quality gate, held still): a capture
 * that does not is dropped and another drawn, at most DEMO_DRAWS_PER_FRAME per frame (`draw` stands in for
 * the generator in tests).
 */
export async function demoFrames(hand: Hand, draw?: (sample: number) => Uint8Array): Promise<string[]> {
  let render = draw;
  if (render === undefined) {
    // Loaded only when the demo is used: the generator is not part of the scanner's first load.
    const { createIdentity, renderSample } = await import('@hasta/palm/synthetic');
    const identity = createIdentity(demoSeed(), DEMO_IDENTITY[hand]);
    render = (sample) => renderSample(identity, sample, 'medium', PALM_ROI_SIZE);
  }
  const frames: string[] = [];
  const failures = new Map<PalmQuality, number>();
  for (let draws = 0; draws < PALM_SCAN_FRAMES * DEMO_DRAWS_PER_FRAME; draws += 1) {
    const roi = render(randomUint32());
    // A synthetic capture holds still: judged against its own pattern, only the gate can refuse it.
    const { quality, detail } = judgeLook(roi, null);
    const verdict = quality === 'moving' ? judgeLook(roi, detail).quality : quality;
    if (verdict === 'ok') {
      frames.push(bytesToBase64(roi));
      if (frames.length === PALM_SCAN_FRAMES) return frames;
    } else failures.set(verdict, (failures.get(verdict) ?? 0) + 1);
  }
  throw new DemoGateError(mostFrequent(failures));
}
