/**
 * The palm's region of interest (ROI) from hand landmarks (issue #6), free of any framework so it can be
 * tested: where the palm square is, the grey square cut from the camera frame, and whether the hand is held
 * well enough for it.
 *
 * Landmarks are MediaPipe Hands' 21 points, normalised to the frame (x right, y down, 0..1): 0 the wrist,
 * 5 / 9 / 13 / 17 the index, middle, ring and pinky knuckles (MCP joints), 4 / 8 / 12 / 16 / 20 the tips.
 * They are in the camera's own, un-mirrored frame (MediaPipe with `selfieMode: false`); `hand` is the real
 * hand. MediaPipe's handedness label assumes a mirrored (selfie) picture, so with `selfieMode: false` its
 * "Left" is the right hand: `handFromLabel` swaps it.
 *
 * The ROI frame is the right palm as the camera sees it: fingers up, wrist down, the thumb's side (index
 * knuckle) on the right (x = 1) and the pinky's side on the left (x = 0). Its x axis runs from the pinky
 * knuckle (17) to the index knuckle (5), which gives the rotation and the scale; its y axis is the
 * perpendicular that points to the wrist for a palm facing the camera. A left palm facing the camera is the
 * mirror image of a right one, so its ROI is mirrored into the same frame: both hands come out alike, and a
 * right hand's ROI is what the guide box cuts from an upright right palm.
 */
import { bilinear } from './features';

/** A square grey frame of side `size` mirrored left to right (a left hand seen as a right one), as a new array. */
export function mirroredFrame(frame: Uint8Array, size: number): Uint8Array {
  const out = new Uint8Array(frame.length);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) out[y * size + x] = frame[y * size + size - 1 - x]!;
  }
  return out;
}

export type RoiHand = 'left' | 'right';

export interface Point {
  x: number;
  y: number;
}

export interface Landmark extends Point {
  z?: number;
}

/** MediaPipe Hands' landmark indices used here. */
export const LANDMARK = {
  wrist: 0,
  thumbTip: 4,
  indexMcp: 5,
  indexTip: 8,
  middleMcp: 9,
  middleTip: 12,
  ringMcp: 13,
  ringTip: 16,
  pinkyMcp: 17,
  pinkyTip: 20,
} as const;
export const LANDMARK_COUNT = 21;

/** The square's side over the knuckle axis's length (|5 − 17|). */
export const ROI_SIDE_FACTOR = 1.1;
/** How far below the knuckle axis (towards the wrist) the square starts, over |5 − 17|. */
export const ROI_START_OFFSET = 0.15;

/** The palm square in frame pixels; corners in ROI order (x = 0 / 1, y = 0 / 1). */
export interface PalmRoi {
  /** The ROI's (0, 0), (1, 0), (1, 1) and (0, 1), in frame pixels. */
  corners: readonly [Point, Point, Point, Point];
  center: Point;
  /** Side in frame pixels. */
  side: number;
  /** The ROI's x axis (unit vector, pinky knuckle to index knuckle) in the frame. */
  axisX: Point;
  /** The ROI's y axis (unit vector, towards the wrist for a palm facing the camera) in the frame. */
  axisY: Point;
  /** Whether the frame's picture is mirrored into the ROI (left hands). */
  mirrored: boolean;
}

/** The real hand from MediaPipe's handedness label, for landmarks of an un-mirrored frame (selfieMode false). */
export function handFromLabel(label: 'Left' | 'Right'): RoiHand {
  return label === 'Left' ? 'right' : 'left';
}

function toPixels(landmark: Landmark | undefined, width: number, height: number): Point {
  if (landmark === undefined || !Number.isFinite(landmark.x) || !Number.isFinite(landmark.y))
    throw new RangeError('missing landmark');
  return { x: landmark.x * width, y: landmark.y * height };
}

function checkFrame(width: number, height: number): void {
  if (!(width > 0 && height > 0)) throw new RangeError('frame size must be positive');
}

/**
 * The palm square of a hand: side ROI_SIDE_FACTOR × |5 − 17|, centred across the knuckle axis and starting
 * ROI_START_OFFSET × |5 − 17| below it on the wrist's side (the side a palm facing the camera has its wrist on,
 * for the given hand). Throws when a landmark is missing or the knuckles coincide.
 */
export function palmRoi(
  landmarks: readonly Landmark[],
  hand: RoiHand,
  width: number,
  height: number,
): PalmRoi {
  checkFrame(width, height);
  const index = toPixels(landmarks[LANDMARK.indexMcp], width, height);
  const pinky = toPixels(landmarks[LANDMARK.pinkyMcp], width, height);
  const dx = index.x - pinky.x;
  const dy = index.y - pinky.y;
  const length = Math.hypot(dx, dy);
  if (!(length > 0)) throw new RangeError('knuckles coincide');
  const axisX = { x: dx / length, y: dy / length };
  // In y-down coordinates, turning the x axis a quarter clockwise keeps the orientation (right hand);
  // turning it anticlockwise mirrors it (left hand).
  const mirrored = hand === 'left';
  const axisY = mirrored ? { x: axisX.y, y: -axisX.x } : { x: -axisX.y, y: axisX.x };
  const side = ROI_SIDE_FACTOR * length;
  const across = ROI_START_OFFSET * length + side / 2;
  const center = {
    x: (index.x + pinky.x) / 2 + axisY.x * across,
    y: (index.y + pinky.y) / 2 + axisY.y * across,
  };
  const at = (u: number, v: number): Point => ({
    x: center.x + (u - 0.5) * side * axisX.x + (v - 0.5) * side * axisY.x,
    y: center.y + (u - 0.5) * side * axisX.y + (v - 0.5) * side * axisY.y,
  });
  return { corners: [at(0, 0), at(1, 0), at(1, 1), at(0, 1)], center, side, axisX, axisY, mirrored };
}

/** Rec. 601 grey of an RGBA picture (a canvas's ImageData), one byte per pixel. */
export function greyFromRgba(
  rgba: Uint8ClampedArray | Uint8Array,
  width: number,
  height: number,
): Uint8Array {
  if (rgba.length !== width * height * 4) throw new RangeError('pixel data does not match the size');
  const grey = new Uint8Array(width * height);
  for (let i = 0, j = 0; i < grey.length; i += 1, j += 4) {
    grey[i] = Math.round(0.299 * rgba[j]! + 0.587 * rgba[j + 1]! + 0.114 * rgba[j + 2]!);
  }
  return grey;
}

/**
 * Samples a grey picture (`width` × `height`, row-major) into the ROI as a `side` × `side` square, with
 * bilinear interpolation through the ROI's affine map (points outside the picture take its nearest edge).
 * Each output pixel averages `supersample`² samples spread over it, so a square much larger than `side`
 * in the picture is averaged down rather than aliased.
 */
export function warpRoi(
  grey: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  roi: PalmRoi,
  side: number,
  supersample = 1,
): Uint8Array {
  checkFrame(width, height);
  if (grey.length !== width * height) throw new RangeError('pixel data does not match the size');
  if (!Number.isInteger(side) || side < 1) throw new RangeError('side must be a positive integer');
  if (!Number.isInteger(supersample) || supersample < 1) throw new RangeError('supersample must be ≥ 1');
  const origin = roi.corners[0];
  const step = roi.side / side;
  const ux = roi.axisX.x * step;
  const uy = roi.axisX.y * step;
  const vx = roi.axisY.x * step;
  const vy = roi.axisY.y * step;
  // Pixel centres are at integer + 0.5.
  const sample = (x: number, y: number): number => bilinear(grey, width, height, x - 0.5, y - 0.5);
  const out = new Uint8Array(side * side);
  const area = supersample * supersample;
  for (let j = 0; j < side; j += 1) {
    for (let i = 0; i < side; i += 1) {
      let sum = 0;
      for (let sj = 0; sj < supersample; sj += 1) {
        const v = j + (sj + 0.5) / supersample;
        for (let si = 0; si < supersample; si += 1) {
          const u = i + (si + 0.5) / supersample;
          sum += sample(origin.x + u * ux + v * vx, origin.y + u * uy + v * vy);
        }
      }
      out[j * side + i] = Math.min(255, Math.max(0, Math.round(sum / area)));
    }
  }
  return out;
}

/**
 * What is wrong with how the hand is held, in the order a person can fix it; 'ok' when nothing is (the
 * scanner words each as a hint): part of the hand or of its palm square is outside the frame; the hand is
 * too far (small) or too close (large); the wrist is on the wrong side of the knuckles (the back of the
 * hand, or the other hand than MediaPipe says); the palm is turned away (narrow for its length); the
 * fingers are curled; or the hand leans too far from upright.
 */
export type HandPose =
  'ok' | 'out-of-frame' | 'too-far' | 'too-close' | 'show-palm' | 'turn-palm' | 'open-hand' | 'rotated';

/** The knuckle axis (|5 − 17|) must be at least this share of the frame's shorter side... */
export const MIN_KNUCKLE_SHARE = 0.12;
/** ...and at most this share (closer, the palm square would not fit a typical frame). */
export const MAX_KNUCKLE_SHARE = 0.55;
/** Landmarks and the palm square may lie this share of the shorter side outside the frame, no more. */
export const FRAME_MARGIN_SHARE = 0.02;
/**
 * |5 − 17| over |0 − 9| (palm width over palm length). A flat open palm facing the camera measures about
 * 0.7 to 0.9; a hand turned on its side, or with the fingers squeezed together, much less.
 */
export const MIN_WIDTH_TO_LENGTH = 0.5;
/** Fingertips must be this much further from the wrist than their knuckles (on average): curled fingers are not. */
export const MIN_TIP_REACH = 1.45;
/** The palm's axis (knuckles to wrist) may lean this far from upright. */
export const MAX_TILT_DEG = 45;

export interface HandAssessment {
  pose: HandPose;
  /** The palm square (absent when the landmarks do not give one). */
  roi?: PalmRoi;
}

/** How well the hand is held for its palm square, from its landmarks alone. */
export function assessHand(
  landmarks: readonly Landmark[],
  hand: RoiHand,
  width: number,
  height: number,
): HandAssessment {
  checkFrame(width, height);
  if (landmarks.length < LANDMARK_COUNT) return { pose: 'out-of-frame' };
  const points = landmarks.map((landmark) => toPixels(landmark, width, height));
  const shorter = Math.min(width, height);
  const margin = FRAME_MARGIN_SHARE * shorter;
  const inside = (p: Point) =>
    p.x >= -margin && p.y >= -margin && p.x <= width + margin && p.y <= height + margin;
  const distance = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);
  const wrist = points[LANDMARK.wrist]!;
  const knuckles = distance(points[LANDMARK.indexMcp]!, points[LANDMARK.pinkyMcp]!);
  if (!(knuckles > 0)) return { pose: 'turn-palm' };
  const roi = palmRoi(landmarks, hand, width, height);
  if (!points.every(inside) || !roi.corners.every(inside)) {
    return { pose: knuckles > MAX_KNUCKLE_SHARE * shorter ? 'too-close' : 'out-of-frame', roi };
  }
  if (knuckles < MIN_KNUCKLE_SHARE * shorter) return { pose: 'too-far', roi };
  if (knuckles > MAX_KNUCKLE_SHARE * shorter) return { pose: 'too-close', roi };
  // A palm facing the camera has its wrist on the ROI's y side of the knuckle axis; the back of the hand
  // (seen as the other hand's palm) has it on the other side.
  const middle = points[LANDMARK.middleMcp]!;
  const palmLength = distance(wrist, middle);
  const towardsWrist = (wrist.x - middle.x) * roi.axisY.x + (wrist.y - middle.y) * roi.axisY.y;
  if (towardsWrist <= 0) return { pose: 'show-palm', roi };
  if (knuckles < MIN_WIDTH_TO_LENGTH * palmLength) return { pose: 'turn-palm', roi };
  const fingers = [
    [LANDMARK.indexMcp, LANDMARK.indexTip],
    [LANDMARK.middleMcp, LANDMARK.middleTip],
    [LANDMARK.ringMcp, LANDMARK.ringTip],
    [LANDMARK.pinkyMcp, LANDMARK.pinkyTip],
  ] as const;
  let reach = 0;
  for (const [mcp, tip] of fingers) {
    reach += distance(points[tip]!, wrist) / Math.max(1e-9, distance(points[mcp]!, wrist));
  }
  if (reach / fingers.length < MIN_TIP_REACH) return { pose: 'open-hand', roi };
  // Upright: the axis to the wrist points down the frame.
  const tilt = (Math.acos(Math.max(-1, Math.min(1, roi.axisY.y))) * 180) / Math.PI;
  if (tilt > MAX_TILT_DEG) return { pose: 'rotated', roi };
  return { pose: 'ok', roi };
}
