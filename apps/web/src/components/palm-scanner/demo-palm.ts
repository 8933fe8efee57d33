import { PALM_ROI_SIZE, PALM_SCAN_FRAMES } from '@hasta/contracts/palm';
import type { Hand } from '@hasta/contracts/palm';

import { bytesToBase64 } from './palm-frame';

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

/** PALM_SCAN_FRAMES frames of this device's demo palm for `hand`, base64 as the scan carries them. */
export async function demoFrames(hand: Hand): Promise<string[]> {
  // Loaded only when the demo is used: the generator is not part of the scanner's first load.
  const { createIdentity, renderSample } = await import('@hasta/palm/synthetic');
  const identity = createIdentity(demoSeed(), DEMO_IDENTITY[hand]);
  const frames: string[] = [];
  for (let i = 0; i < PALM_SCAN_FRAMES; i += 1) {
    frames.push(bytesToBase64(renderSample(identity, randomUint32(), 'medium', PALM_ROI_SIZE)));
  }
  return frames;
}
