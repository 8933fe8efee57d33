/**
 * Several captures of one palm made into one feature: each frame is aligned to the first (a rotation and a
 * whole-cell shift of its filter responses, chosen by normalised correlation), and the responses are
 * averaged cell by cell. Sensor noise, illumination and small crease changes differ from frame to frame
 * while the lines stay, so the averaged responses code the palm more faithfully than any one frame: the
 * benchmark's genuine tail shrinks (docs/palm-benchmark.md, decision 014).
 *
 * The frames must show one palm: `fuseFeatures` measures each frame's Competitive Code distance to the
 * first at the chosen alignment, and the caller refuses a scan whose frames disagree. Like the features, the
 * fused feature lives only in memory, long enough to be protected.
 */
import {
  alignResponses,
  codeDistance,
  encodeCode,
  encodeResponses,
  ORIENTATIONS,
  type Alignment,
  type PalmFeatures,
} from './features';

export interface FusionPlan {
  /** Rotations of a frame tried against the first. */
  rotations_deg: readonly number[];
  /** Whole-cell shifts tried on each axis, −maxShift..maxShift. */
  maxShift_cells: number;
  /** Scales of a frame tried against the first (its ROI's size relative to the first's; [1] if absent). */
  scales?: readonly number[];
}

/**
 * Frames of one scan are a fraction of a second apart, but the benchmark's samples are independent captures
 * (up to ±5° and a few pixels each, so up to 10° apart): 2° steps leave at most 1°.
 */
export const DEFAULT_FUSION_PLAN: Readonly<FusionPlan> = {
  rotations_deg: [-10, -8, -6, -4, -2, 0, 2, 4, 6, 8, 10],
  maxShift_cells: 2,
};

/**
 * A registration's holds aligned to its first (decision 049): two holds of one palm differ as two payments
 * do, each by up to ±15°, ±10 % in scale and a few cells, so their difference is twice that. Not used by the
 * server yet: registrations are one hold.
 */
export const HOLD_FUSION_PLAN: Readonly<FusionPlan> = {
  rotations_deg: Array.from({ length: 31 }, (_, i) => -30 + 2 * i),
  maxShift_cells: 3,
  scales: [0.82, 0.86, 0.91, 0.95, 1, 1.05, 1.1, 1.16, 1.22],
};

/**
 * Largest Competitive Code distance (unprotected, at the alignment `alignFrame` chose) between two frames
 * that show one palm. Measured on the medium setting (300 identities): 0.172 ± 0.028 for two captures of one
 * palm (largest 0.273), 0.424 ± 0.029 for two palms (smallest 0.313); 0.30 is over four standard deviations
 * from either.
 */
export const FRAME_AGREEMENT_MAX_DISTANCE = 0.3;

export interface FrameAlignment {
  alignment: Alignment;
  /** Normalised correlation of the responses over the cells both frames see, at that alignment. */
  correlation: number;
}

/** The rotation and whole-cell shift of `frame` that best matches `reference`. */
export function alignFrame(
  reference: PalmFeatures,
  frame: PalmFeatures,
  plan: Readonly<FusionPlan> = DEFAULT_FUSION_PLAN,
): FrameAlignment {
  if (reference.grid !== frame.grid) throw new RangeError('frames of different grids');
  const { grid } = reference;
  const a = reference.responses;
  const shift = plan.maxShift_cells;
  if (!(Number.isInteger(shift) && shift >= 0 && shift < grid / 4))
    throw new RangeError('shift out of range');
  let best: FrameAlignment = {
    alignment: { rotation_deg: 0, dx_cells: 0, dy_cells: 0 },
    correlation: -Infinity,
  };
  const span = grid * ORIENTATIONS;
  const weights = new Float32Array(a.length);
  for (const scale of plan.scales ?? [1])
    for (const rotation_deg of plan.rotations_deg) {
      // A whole-cell shift of the rotated responses is a shift of the source position by whole cells, so one
      // resampling per rotation serves every shift. Cells the rotation leaves out are 0 in `b`, and their
      // `weights` are 0, so they drop out of every sum below.
      const rotated = alignResponses(frame, { rotation_deg, dx_cells: 0, dy_cells: 0, scale });
      const b = rotated.responses;
      for (let cell = 0; cell < grid * grid; cell++) {
        weights.fill(rotated.valid[cell]!, cell * ORIENTATIONS, (cell + 1) * ORIENTATIONS);
      }
      for (let dy = -shift; dy <= shift; dy++) {
        for (let dx = -shift; dx <= shift; dx++) {
          let ab = 0;
          let aa = 0;
          let bb = 0;
          const x0 = Math.max(0, -dx);
          const length = (Math.min(grid, grid - dx) - x0) * ORIENTATIONS;
          for (let y = Math.max(0, -dy); y < Math.min(grid, grid - dy); y++) {
            const ia = y * span + x0 * ORIENTATIONS;
            const ib = (y + dy) * span + (x0 + dx) * ORIENTATIONS;
            for (let i = 0; i < length; i++) {
              const va = a[ia + i]!;
              const vb = b[ib + i]!;
              ab += va * vb;
              bb += vb * vb;
              aa += va * va * weights[ib + i]!;
            }
          }
          const correlation = aa > 0 && bb > 0 ? ab / Math.sqrt(aa * bb) : -1;
          if (correlation > best.correlation) {
            best = {
              alignment: { rotation_deg, dx_cells: dx, dy_cells: dy, ...(scale === 1 ? {} : { scale }) },
              correlation,
            };
          }
        }
      }
    }
  return best;
}

/**
 * The frame's responses under an alignment as `alignFrame` scores it: rotated, then shifted by whole cells
 * on the grid (cell (x, y) takes the rotated cell (x + dx, y + dy)); `valid` marks the cells it covers.
 */
export function shiftedResponses(
  frame: PalmFeatures,
  alignment: Readonly<Alignment>,
): { responses: Float32Array; valid: Uint8Array } {
  const { grid } = frame;
  const { dx_cells: dx, dy_cells: dy } = alignment;
  if (!Number.isInteger(dx) || !Number.isInteger(dy)) throw new RangeError('shifts are whole cells');
  const rotated = alignResponses(frame, {
    rotation_deg: alignment.rotation_deg,
    dx_cells: 0,
    dy_cells: 0,
    ...(alignment.scale === undefined ? {} : { scale: alignment.scale }),
  });
  const responses = new Float32Array(rotated.responses.length);
  const valid = new Uint8Array(grid * grid);
  for (let y = Math.max(0, -dy); y < Math.min(grid, grid - dy); y++) {
    for (let x = Math.max(0, -dx); x < Math.min(grid, grid - dx); x++) {
      const source = (y + dy) * grid + x + dx;
      if (!rotated.valid[source]) continue;
      const cell = y * grid + x;
      valid[cell] = 1;
      responses.set(
        rotated.responses.subarray(source * ORIENTATIONS, (source + 1) * ORIENTATIONS),
        cell * ORIENTATIONS,
      );
    }
  }
  return { responses, valid };
}

export interface FusedFeatures {
  features: PalmFeatures;
  /** For each frame after the first: its aligned Competitive Code distance to the first (see above). */
  distances: number[];
}

/**
 * One feature from the frames of a scan (the first is the reference; one frame is returned as it is).
 * A cell takes the mean of the frames that see it after alignment.
 */
export function fuseFeatures(
  frames: readonly PalmFeatures[],
  plan: Readonly<FusionPlan> = DEFAULT_FUSION_PLAN,
): FusedFeatures {
  const reference = frames[0];
  if (!reference) throw new RangeError('no frames to fuse');
  if (frames.length === 1) return { features: reference, distances: [] };
  const { grid } = reference;
  const cells = grid * grid;
  const sum = Float32Array.from(reference.responses);
  const count = new Uint8Array(cells).fill(1);
  const distances: number[] = [];
  const referenceCode = encodeCode(reference);
  for (const frame of frames.slice(1)) {
    if (frame.grid !== grid || frame.options.kind !== reference.options.kind) {
      throw new RangeError('frames of different feature shapes');
    }
    const aligned = shiftedResponses(frame, alignFrame(reference, frame, plan).alignment);
    const code = encodeResponses(aligned.responses, grid, frame.options);
    for (let y = 0; y < grid; y++) {
      for (let x = 0; x < grid; x++) if (!aligned.valid[y * grid + x]) code.mask[y]! &= ~(1 << x);
    }
    distances.push(codeDistance(referenceCode, code, 0));
    for (let cell = 0; cell < cells; cell++) {
      if (!aligned.valid[cell]) continue;
      count[cell]!++;
      for (let k = 0; k < ORIENTATIONS; k++)
        sum[cell * ORIENTATIONS + k]! += aligned.responses[cell * ORIENTATIONS + k]!;
    }
  }
  for (let cell = 0; cell < cells; cell++) {
    const n = count[cell]!;
    for (let k = 0; k < ORIENTATIONS; k++) sum[cell * ORIENTATIONS + k]! /= n;
  }
  return { features: { options: reference.options, grid, responses: sum }, distances };
}
