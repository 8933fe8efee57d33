/**
 * A palm model for the benchmark: a generator of palms (identities), each of which can show its surface
 * (reflectance, no camera) as it looks on one occasion. The camera (camera.ts) then films that surface.
 *
 * Coordinates are those of packages/palm/src/synthetic.ts: fractions of the nominal ROI square [0, 1], x to
 * the right with the thumb side at x = 0, y down with the fingers above y = 0 and the wrist below y = 1.
 */

export interface PalmIdentity {
  /**
   * The palm's reflectance (0..1) on a size × size grid, row-major, covering ROI coordinates [−0.5, 1.5] on
   * both axes (pixel (i, j) is centred at −0.5 + 2 (i + 0.5) / size). `variant` seeds this look's skin
   * stretch and crease visibility (one variant per hold); the same (variant, size) gives the same surface.
   */
  surface(variant: number, size: number): Float32Array;
}

export interface PalmModel {
  readonly name: string;
  /** Palm number `index` of the population drawn from `seed`. */
  identity(seed: number, index: number): PalmIdentity;
}

/** The extent of a surface: ROI coordinates [SURFACE_LOW, SURFACE_HIGH] on both axes. */
export const SURFACE_LOW = -0.5;
export const SURFACE_HIGH = 1.5;
