import { describe, expect, it } from 'vitest';
import {
  assessHand,
  greyFromRgba,
  handFromLabel,
  palmRoi,
  ROI_SIDE_FACTOR,
  ROI_START_OFFSET,
  warpRoi,
  type HandPose,
  type Landmark,
  type Point,
  type RoiHand,
} from './roi';
import { bilinear } from './features';
import { syntheticPalm } from './synthetic';

/**
 * A right palm facing the camera, upright, in hand units: the index knuckle (5) at (0.5, 0), the pinky
 * knuckle (17) at (−0.5, 0), fingers up (y < 0), the wrist below and the thumb on the right.
 */
const RIGHT_HAND: readonly Point[] = [
  { x: 0.05, y: 1.35 }, // 0 wrist
  { x: 0.35, y: 1.1 },
  { x: 0.6, y: 0.85 },
  { x: 0.8, y: 0.6 },
  { x: 0.95, y: 0.4 }, // 4 thumb tip
  { x: 0.5, y: 0 }, // 5 index MCP
  { x: 0.58, y: -0.4 },
  { x: 0.62, y: -0.65 },
  { x: 0.66, y: -0.9 },
  { x: 0.17, y: -0.05 }, // 9 middle MCP
  { x: 0.19, y: -0.5 },
  { x: 0.2, y: -0.78 },
  { x: 0.21, y: -1.05 },
  { x: -0.17, y: -0.02 }, // 13 ring MCP
  { x: -0.2, y: -0.45 },
  { x: -0.22, y: -0.7 },
  { x: -0.24, y: -0.95 },
  { x: -0.5, y: 0 }, // 17 pinky MCP
  { x: -0.6, y: -0.3 },
  { x: -0.66, y: -0.5 },
  { x: -0.7, y: -0.7 },
];

/** The ROI corners of RIGHT_HAND in hand units, from the constants alone: (0,0), (1,0), (1,1), (0,1). */
const HALF = ROI_SIDE_FACTOR / 2;
const TOP = ROI_START_OFFSET;
const BOTTOM = ROI_START_OFFSET + ROI_SIDE_FACTOR;
const HAND_CORNERS: readonly Point[] = [
  { x: -HALF, y: TOP },
  { x: HALF, y: TOP },
  { x: HALF, y: BOTTOM },
  { x: -HALF, y: BOTTOM },
];

const WIDTH = 640;
const HEIGHT = 480;

interface Placement {
  /** Where the knuckle axis's midpoint goes, frame pixels. */
  at: Point;
  /** Pixels per hand unit (|5 − 17|). */
  scale: number;
  rotation_deg: number;
  /** A left hand is the right hand mirrored. */
  mirrored: boolean;
  /** Squashes the hand across (a hand turned on its side). */
  squash?: number;
}

/** A hand-unit point in frame pixels under the placement. */
function place(p: Point, placement: Placement): Point {
  const x = p.x * (placement.mirrored ? -1 : 1) * (placement.squash ?? 1);
  const theta = (placement.rotation_deg * Math.PI) / 180;
  return {
    x: placement.at.x + placement.scale * (Math.cos(theta) * x - Math.sin(theta) * p.y),
    y: placement.at.y + placement.scale * (Math.sin(theta) * x + Math.cos(theta) * p.y),
  };
}

function landmarks(
  placement: Placement,
  hand: readonly Point[] = RIGHT_HAND,
  width = WIDTH,
  height = HEIGHT,
) {
  return hand.map((p): Landmark => {
    const q = place(p, placement);
    return { x: q.x / width, y: q.y / height, z: 0 };
  });
}

const handOf = (mirrored: boolean): RoiHand => (mirrored ? 'left' : 'right');

describe('palm ROI geometry', () => {
  const placements: Placement[] = [
    { at: { x: 320, y: 200 }, scale: 120, rotation_deg: 0, mirrored: false },
    { at: { x: 300, y: 220 }, scale: 100, rotation_deg: 25, mirrored: false },
    { at: { x: 340, y: 190 }, scale: 140, rotation_deg: -35, mirrored: false },
    { at: { x: 320, y: 200 }, scale: 120, rotation_deg: 0, mirrored: true },
    { at: { x: 280, y: 230 }, scale: 90, rotation_deg: 30, mirrored: true },
    { at: { x: 350, y: 210 }, scale: 130, rotation_deg: -20, mirrored: true },
  ];

  it.each(placements)('gives the same palm corners for a placed hand (%o)', (placement) => {
    const roi = palmRoi(landmarks(placement), handOf(placement.mirrored), WIDTH, HEIGHT);
    expect(roi.mirrored).toBe(placement.mirrored);
    expect(roi.side).toBeCloseTo(ROI_SIDE_FACTOR * placement.scale, 6);
    roi.corners.forEach((corner, i) => {
      const expected = place(HAND_CORNERS[i]!, placement);
      expect(corner.x).toBeCloseTo(expected.x, 6);
      expect(corner.y).toBeCloseTo(expected.y, 6);
    });
  });

  it('does not depend on the frame size (landmarks are normalised)', () => {
    const placement: Placement = { at: { x: 600, y: 400 }, scale: 200, rotation_deg: 10, mirrored: true };
    const roi = palmRoi(landmarks(placement, RIGHT_HAND, 1280, 960), 'left', 1280, 960);
    expect(roi.corners[2].x).toBeCloseTo(place(HAND_CORNERS[2]!, placement).x, 6);
    expect(roi.corners[2].y).toBeCloseTo(place(HAND_CORNERS[2]!, placement).y, 6);
  });

  it("swaps MediaPipe's selfie-view handedness label for un-mirrored frames", () => {
    expect(handFromLabel('Left')).toBe('right');
    expect(handFromLabel('Right')).toBe('left');
  });

  it('refuses missing landmarks', () => {
    expect(() => palmRoi([], 'right', WIDTH, HEIGHT)).toThrow(RangeError);
  });
});

describe('palm ROI warp', () => {
  const SIZE = 128;
  const palm = syntheticPalm({ seed: 11, identity: 3, sample: 0, setting: 'easy', size: SIZE });
  const BACKGROUND = 30;

  /** Bilinear sample of the palm at ROI pixel coordinates (pixel centres at integer + 0.5). */
  function samplePalm(x: number, y: number): number {
    return bilinear(palm, SIZE, SIZE, x - 0.5, y - 0.5);
  }

  /** A camera frame with the palm drawn where the placed hand's palm square is (mirrored for a left hand). */
  function drawFrame(placement: Placement, width: number, height: number): Uint8Array {
    const theta = (placement.rotation_deg * Math.PI) / 180;
    const frame = new Uint8Array(width * height);
    for (let y = 0; y < height; y += 1) {
      for (let x = 0; x < width; x += 1) {
        // Back from frame pixels to hand units, then to ROI coordinates.
        const dx = (x + 0.5 - placement.at.x) / placement.scale;
        const dy = (y + 0.5 - placement.at.y) / placement.scale;
        const hx = (Math.cos(theta) * dx + Math.sin(theta) * dy) * (placement.mirrored ? -1 : 1);
        const hy = -Math.sin(theta) * dx + Math.cos(theta) * dy;
        const u = (hx + HALF) / ROI_SIDE_FACTOR;
        const v = (hy - TOP) / ROI_SIDE_FACTOR;
        frame[y * width + x] =
          u >= 0 && u <= 1 && v >= 0 && v <= 1 ? Math.round(samplePalm(u * SIZE, v * SIZE)) : BACKGROUND;
      }
    }
    return frame;
  }

  /** Mean absolute difference inside a border (the square's edge mixes in the background). */
  function meanDifference(a: Uint8Array, b: Uint8Array, border = 3): number {
    let sum = 0;
    let count = 0;
    for (let y = border; y < SIZE - border; y += 1) {
      for (let x = border; x < SIZE - border; x += 1) {
        sum += Math.abs(a[y * SIZE + x]! - b[y * SIZE + x]!);
        count += 1;
      }
    }
    return sum / count;
  }

  function mirror(image: Uint8Array): Uint8Array {
    const out = new Uint8Array(image.length);
    for (let y = 0; y < SIZE; y += 1)
      for (let x = 0; x < SIZE; x += 1) out[y * SIZE + x] = image[y * SIZE + (SIZE - 1 - x)]!;
    return out;
  }

  it.each([
    { at: { x: 200, y: 60 }, scale: 150, rotation_deg: 0, mirrored: false },
    { at: { x: 210, y: 70 }, scale: 140, rotation_deg: 28, mirrored: false },
    { at: { x: 190, y: 80 }, scale: 160, rotation_deg: -17, mirrored: true },
    { at: { x: 200, y: 75 }, scale: 130, rotation_deg: 40, mirrored: true },
  ] satisfies Placement[])('recovers the upright palm from a rotated, scaled frame (%o)', (placement) => {
    const width = 400;
    const height = 360;
    const frame = drawFrame(placement, width, height);
    const roi = palmRoi(
      landmarks(placement, RIGHT_HAND, width, height),
      handOf(placement.mirrored),
      width,
      height,
    );
    const warped = warpRoi(frame, width, height, roi, SIZE, 2);
    const difference = meanDifference(warped, palm);
    expect(difference).toBeLessThan(2);
    // The comparison tells orientations apart: the mirror image is far off.
    expect(meanDifference(warped, mirror(palm))).toBeGreaterThan(3 * difference);
  });

  it('takes the nearest edge outside the picture and checks its arguments', () => {
    const grey = Uint8Array.from([10, 20, 30, 40]);
    const roi = palmRoi(
      landmarks({ at: { x: 1, y: -5 }, scale: 4, rotation_deg: 0, mirrored: false }, RIGHT_HAND, 2, 2),
      'right',
      2,
      2,
    );
    const out = warpRoi(grey, 2, 2, roi, 4);
    expect(out.every((value) => value >= 10 && value <= 40)).toBe(true);
    expect(() => warpRoi(grey, 3, 2, roi, 4)).toThrow(RangeError);
    expect(() => warpRoi(grey, 2, 2, roi, 0)).toThrow(RangeError);
  });

  it('turns RGBA into Rec. 601 grey', () => {
    expect([...greyFromRgba(Uint8ClampedArray.from([255, 255, 255, 255, 255, 0, 0, 255]), 2, 1)]).toEqual([
      255, 76,
    ]);
  });
});

describe('hand pose check', () => {
  const upright: Placement = { at: { x: 320, y: 220 }, scale: 120, rotation_deg: 0, mirrored: false };
  const fist = RIGHT_HAND.map((p, i) => {
    // Curled fingers: each finger's joints and tip fold back over its knuckle, into the palm.
    const knuckle = i >= 5 && i <= 20 ? RIGHT_HAND[5 + 4 * Math.floor((i - 5) / 4)]! : null;
    return knuckle !== null && (i - 5) % 4 !== 0 ? { x: knuckle.x, y: knuckle.y + 0.1 * ((i - 5) % 4) } : p;
  });
  const cases: {
    name: string;
    placement: Placement;
    hand?: readonly Point[];
    claimed?: RoiHand;
    pose: HandPose;
  }[] = [
    { name: 'an upright right palm', placement: upright, pose: 'ok' },
    { name: 'a tilted left palm', placement: { ...upright, rotation_deg: -30, mirrored: true }, pose: 'ok' },
    { name: 'a hand far away', placement: { ...upright, scale: 40 }, pose: 'too-far' },
    { name: 'a hand too close', placement: { ...upright, scale: 300 }, pose: 'too-close' },
    {
      name: 'a hand partly out of frame',
      placement: { ...upright, at: { x: 610, y: 220 } },
      pose: 'out-of-frame',
    },
    {
      name: 'the back of a hand',
      placement: { ...upright, mirrored: true },
      claimed: 'right',
      pose: 'show-palm',
    },
    {
      name: 'a hand turned on its side',
      placement: { ...upright, scale: 170, squash: 0.45 },
      pose: 'turn-palm',
    },
    { name: 'a fist', placement: upright, hand: fist, pose: 'open-hand' },
    {
      name: 'a hand turned sideways',
      placement: { ...upright, rotation_deg: 70, at: { x: 320, y: 240 } },
      pose: 'rotated',
    },
  ];

  it.each(cases)('says $pose for $name', ({ placement, hand, claimed, pose }) => {
    const assessment = assessHand(
      landmarks(placement, hand ?? RIGHT_HAND),
      claimed ?? handOf(placement.mirrored),
      WIDTH,
      HEIGHT,
    );
    expect(assessment.pose).toBe(pose);
  });

  it('says out-of-frame without all the landmarks', () => {
    expect(assessHand(landmarks(upright).slice(0, 10), 'right', WIDTH, HEIGHT).pose).toBe('out-of-frame');
  });
});
