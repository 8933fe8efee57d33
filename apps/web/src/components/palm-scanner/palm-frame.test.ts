import { PALM_ROI_BYTES, PALM_ROI_SIZE } from '@hasta/contracts/palm';
import { createIdentity, renderSample } from '@hasta/palm/synthetic';
import { describe, expect, it } from 'vitest';

import {
  assessRoi,
  bytesToBase64,
  correlation,
  detailPattern,
  guideBox,
  judgeLook,
  MAX_NOT_SKIN_SHARE,
  mostFrequent,
  notSkinShare,
  ScanDeadline,
  roiFromRgba,
  workingSide,
} from './palm-frame';
import { gaussianBlurred } from '@hasta/palm/frame-blur';

/** An RGBA square filled by `grey(x, y)` (the same value in R, G and B). */
function rgbaSquare(side: number, grey: (x: number, y: number) => number): Uint8ClampedArray {
  const rgba = new Uint8ClampedArray(side * side * 4);
  for (let y = 0; y < side; y += 1) {
    for (let x = 0; x < side; x += 1) {
      const i = (y * side + x) * 4;
      rgba[i] = rgba[i + 1] = rgba[i + 2] = grey(x, y);
      rgba[i + 3] = 255;
    }
  }
  return rgba;
}

const flat = (grey: number): Uint8Array => new Uint8Array(PALM_ROI_BYTES).fill(grey);

/** Sample `sample` of a synthetic palm, drawn larger and cut with an offset, as a camera sees a moving hand. */
function shiftedPalm(shift_px: number): Uint8Array {
  const big = renderSample(createIdentity(7, 3), 11, 'easy', 2 * PALM_ROI_SIZE);
  const roi = new Uint8Array(PALM_ROI_BYTES);
  const origin = PALM_ROI_SIZE / 2;
  for (let y = 0; y < PALM_ROI_SIZE; y += 1) {
    for (let x = 0; x < PALM_ROI_SIZE; x += 1) {
      roi[y * PALM_ROI_SIZE + x] = big[(y + origin) * 2 * PALM_ROI_SIZE + x + origin + shift_px]!;
    }
  }
  return roi;
}

describe('guide box', () => {
  it('is the centred square of 0.6 of the shorter side', () => {
    expect(guideBox(640, 480)).toEqual({ x: 176, y: 96, side: 288 });
    expect(guideBox(1080, 1920)).toEqual({ x: 216, y: 636, side: 648 });
    expect(() => guideBox(0, 480)).toThrow(RangeError);
  });

  it('is drawn at a whole multiple of the ROI, at most four times it', () => {
    expect(workingSide(288)).toBe(256);
    expect(workingSide(648)).toBe(512);
    expect(workingSide(2000)).toBe(512);
    expect(workingSide(60)).toBe(128);
  });
});

describe('ROI', () => {
  it('is the luma of the box, block-averaged to 128 × 128', () => {
    const side = 256;
    // Left half black, right half white; 2 × 2 blocks average exactly.
    const roi = roiFromRgba(
      rgbaSquare(side, (x) => (x < side / 2 ? 0 : 255)),
      side,
    );
    expect(roi).toHaveLength(PALM_ROI_BYTES);
    expect(roi[0]).toBe(0);
    expect(roi[PALM_ROI_SIZE - 1]).toBe(255);
    // Rec. 601 weights: pure red is 76 of 255.
    const red = new Uint8ClampedArray(PALM_ROI_BYTES * 4);
    for (let i = 0; i < red.length; i += 4) {
      red[i] = 255;
      red[i + 3] = 255;
    }
    expect(roiFromRgba(red, PALM_ROI_SIZE)[0]).toBe(76);
  });

  it('refuses sizes that are not whole multiples', () => {
    expect(() => roiFromRgba(new Uint8ClampedArray(200 * 200 * 4), 200)).toThrow(RangeError);
    expect(() => roiFromRgba(new Uint8ClampedArray(10), PALM_ROI_SIZE)).toThrow(RangeError);
  });

  it('travels as standard base64', () => {
    const bytes = new Uint8Array(PALM_ROI_BYTES);
    for (let i = 0; i < bytes.length; i += 1) bytes[i] = (i * 37) % 256;
    const text = bytesToBase64(bytes);
    expect(text).toBe(Buffer.from(bytes).toString('base64'));
    expect(text).toHaveLength(21_848);
  });
});

describe('quality feedback', () => {
  const palm = renderSample(createIdentity(42, 0), 1, 'medium', PALM_ROI_SIZE);

  it('says too dark, too bright, and no palm for a flat box', () => {
    expect(assessRoi(flat(20), null).quality).toBe('too-dark');
    expect(assessRoi(flat(240), null).quality).toBe('too-bright');
    const clipped = flat(150);
    clipped.fill(255, 0, PALM_ROI_BYTES / 2);
    expect(assessRoi(clipped, null).quality).toBe('too-bright');
    expect(assessRoi(flat(120), null).quality).toBe('no-palm');
  });

  it('a palm is good once it is still: the first look, and a moved hand, say hold still', () => {
    const first = assessRoi(palm, null);
    expect(first.quality).toBe('moving');
    expect(assessRoi(palm, first.detail).quality).toBe('ok');

    const still = shiftedPalm(0);
    const moved = shiftedPalm(16);
    expect(assessRoi(moved, detailPattern(still)).quality).toBe('moving');
    expect(assessRoi(shiftedPalm(0), detailPattern(still)).quality).toBe('ok');
  });

  it('every synthetic palm of the demo and the browser tests passes the light and contrast checks', () => {
    for (const setting of ['easy', 'medium'] as const) {
      for (let identity = 0; identity < 40; identity += 1) {
        const roi = renderSample(createIdentity(9, identity), identity, setting, PALM_ROI_SIZE);
        const quality = assessRoi(roi, detailPattern(roi)).quality;
        expect(quality, `${setting} identity ${identity}`).toBe('ok');
      }
    }
  });

  it('correlation of patterns', () => {
    const a = new Float32Array([1, 2, 3, 4]);
    expect(correlation(a, a)).toBeCloseTo(1);
    expect(correlation(a, new Float32Array([4, 3, 2, 1]))).toBeCloseTo(-1);
    expect(correlation(a, new Float32Array(4))).toBe(0);
  });
});

/** A defocused copy of a grey ROI: Gaussian blur of σ `sigma_px` (edges clamped). */
const blurredRoi = (frame: Uint8Array, sigma_px: number): Uint8Array =>
  gaussianBlurred(frame, PALM_ROI_SIZE, sigma_px);

describe('the quality gate on each look', () => {
  const palm = renderSample(createIdentity(42, 0), 1, 'medium', PALM_ROI_SIZE);
  const still = (roi: Uint8Array, pose?: Parameters<typeof judgeLook>[2]) =>
    judgeLook(roi, detailPattern(roi), pose);
  const goodPose = { palmShare: 0.35, widthToLength: 0.8, edgeMargin: 0.1 };

  it('takes a sharp, still, well-held palm, and scores it', () => {
    const verdict = still(palm, goodPose);
    expect(verdict.quality).toBe('ok');
    expect(verdict.score).toBeGreaterThanOrEqual(0.5);
  });

  it('says a blurred palm is blurred, held still or not, and a sharp moving one to hold still', () => {
    const blurred = blurredRoi(palm, 3);
    const verdict = still(blurred);
    expect(verdict.quality).toBe('blurry');
    expect(verdict.score).toBeLessThan(still(palm).score);
    // The first look has nothing to compare with, so it counts as moving: blurred, it is still called blurred.
    expect(judgeLook(blurred, null).quality).toBe('blurry');
    expect(judgeLook(palm, null).quality).toBe('moving');
  });

  it('says how to hold the hand: closer, flat towards the camera, inside the picture', () => {
    expect(still(palm, { ...goodPose, palmShare: 0.1 }).quality).toBe('too-far');
    expect(still(palm, { ...goodPose, widthToLength: 0.4 }).quality).toBe('tilted');
    expect(still(palm, { ...goodPose, edgeMargin: -0.05 }).quality).toBe('out-of-frame');
    // Light before pose: a dark palm held far is told about the light.
    const dark = Uint8Array.from(palm, (v) => Math.round(v * 0.2));
    expect(still(dark, { ...goodPose, palmShare: 0.1 }).quality).toBe('too-dark');
  });

  it('every synthetic palm of the demo and the browser tests passes the gate', () => {
    for (let identity = 0; identity < 30; identity += 1) {
      const roi = renderSample(createIdentity(11, identity), identity, 'medium', PALM_ROI_SIZE);
      expect(still(roi).quality, `identity ${identity}`).toBe('ok');
    }
  });

  it('names the reason seen most often', () => {
    expect(mostFrequent(new Map<string, number>())).toBeNull();
    expect(
      mostFrequent(
        new Map([
          ['moving', 2],
          ['blurry', 5],
          ['too-dark', 5],
        ]),
      ),
    ).toBe('blurry');
  });
});

describe('the scan’s time limit', () => {
  it('starts at the first palm-like look, runs out after its limit, and names what kept failing', () => {
    const deadline = new ScanDeadline<string>(60_000, (reason) => reason === 'no-palm');
    // An empty box for a long time: someone is awaited, the clock has not started.
    deadline.refused('no-palm', 0);
    deadline.refused('no-palm', 120_000);
    expect(deadline.expired(200_000)).toBe(false);
    deadline.refused('blurry', 200_000);
    deadline.taken(200_500);
    deadline.refused('blurry', 201_000);
    deadline.refused('moving', 202_000);
    expect(deadline.expired(259_999)).toBe(false);
    expect(deadline.expired(260_000)).toBe(true);
    expect(deadline.reason).toBe('no-palm');
    deadline.refused('blurry', 260_000);
    expect(deadline.reason).toBe('blurry');
  });

  it('a taken look starts the clock too; a limit must be positive', () => {
    const deadline = new ScanDeadline<string>(1_000, () => false);
    expect(deadline.reason).toBeNull();
    deadline.taken(5);
    expect(deadline.expired(1_004)).toBe(false);
    expect(deadline.expired(1_005)).toBe(true);
    expect(() => new ScanDeadline<string>(0, () => false)).toThrow(RangeError);
  });
});

describe('only a palm is taken', () => {
  /** Chromium's fake camera in the guide box: its green ground (grey 79) and the turning disc (174). */
  const testPattern = (angle: number): Uint8Array =>
    Uint8Array.from({ length: PALM_ROI_BYTES }, (_, i) => {
      const x = i % PALM_ROI_SIZE;
      const y = Math.floor(i / PALM_ROI_SIZE);
      const inside = Math.hypot(x - 64, y - 64) < 52 && Math.atan2(y - 64, x - 64) + Math.PI > angle;
      return inside ? 174 : 79;
    });

  it('says a still test pattern is not a palm, though it is lit, contrasted and sharp', () => {
    const first = judgeLook(testPattern(1), null);
    const still = judgeLook(testPattern(1), first.detail);
    expect(still).toMatchObject({ quality: 'not-palm', score: 0 });
  });

  it('takes a palm the same way as before', () => {
    const palm = renderSample(createIdentity(7, 5), 2, 'medium', PALM_ROI_SIZE);
    expect(judgeLook(palm, judgeLook(palm, null).detail).quality).toBe('ok');
  });

  /** An RGBA picture of one colour. */
  const filled = (r: number, g: number, b: number): Uint8ClampedArray =>
    Uint8ClampedArray.from({ length: 64 * 4 }, (_, i) => [r, g, b, 255][i % 4]!);

  it('judges colour before the grey crop: the fake camera’s green is no skin; skin tones and grey may be', () => {
    expect(notSkinShare(filled(30, 184, 9))).toBe(1);
    expect(notSkinShare(filled(40, 90, 200))).toBe(1);
    const skins: [number, number, number][] = [
      [224, 172, 140],
      [160, 118, 96],
      [96, 64, 48],
      [141, 85, 36],
    ];
    for (const [r, g, b] of skins) expect(notSkinShare(filled(r, g, b)), `${r},${g},${b}`).toBe(0);
    // A monochrome camera, or grey light: no colour says nothing against a palm.
    expect(notSkinShare(filled(128, 128, 128))).toBe(0);
    expect(notSkinShare(filled(30, 184, 9))).toBeGreaterThan(MAX_NOT_SKIN_SHARE);
    expect(() => notSkinShare(new Uint8ClampedArray(3))).toThrow(RangeError);
  });
});
