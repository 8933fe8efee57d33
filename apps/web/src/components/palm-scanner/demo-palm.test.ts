import { PALM_ROI_BYTES, PALM_ROI_SIZE, PALM_SCAN_FRAMES } from '@hasta/contracts/palm';
import { createIdentity, renderSample } from '@hasta/palm/synthetic';
import { describe, expect, it } from 'vitest';

import { DEMO_DRAWS_PER_FRAME, DemoGateError, demoFrames } from './demo-palm';

const identity = createIdentity(5, 1);
const sharp = (sample: number) => renderSample(identity, sample, 'medium', PALM_ROI_SIZE);
/** A capture in poor light (what a failing draw of the generator would look like to the gate). */
const dark = (sample: number) => Uint8Array.from(sharp(sample), (v) => Math.round(v * 0.15));

describe('the demo palm goes through the quality gate', () => {
  it('sends PALM_SCAN_FRAMES frames that pass, dropping the draws that do not', async () => {
    let draws = 0;
    const frames = await demoFrames('right', (sample) => {
      draws += 1;
      // Every other draw is too dark: it is dropped and another one drawn.
      return draws % 2 === 1 ? dark(sample) : sharp(sample);
    });
    expect(frames).toHaveLength(PALM_SCAN_FRAMES);
    expect(draws).toBe(2 * PALM_SCAN_FRAMES);
    for (const frame of frames) {
      const bytes = Buffer.from(frame, 'base64');
      expect(bytes).toHaveLength(PALM_ROI_BYTES);
      expect(bytes.reduce((a, b) => a + b, 0) / bytes.length).toBeGreaterThan(60);
    }
  });

  it('gives up after a bounded number of draws, saying what kept failing', async () => {
    let draws = 0;
    const failed = demoFrames('left', (sample) => {
      draws += 1;
      return dark(sample);
    });
    await expect(failed).rejects.toBeInstanceOf(DemoGateError);
    await expect(failed).rejects.toMatchObject({ reason: 'too-dark' });
    expect(draws).toBe(PALM_SCAN_FRAMES * DEMO_DRAWS_PER_FRAME);
  });
});
