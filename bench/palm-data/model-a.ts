/**
 * Model A: the engine's own generator (packages/palm/src/synthetic.ts, Bézier creases over value-noise skin)
 * seen as a PalmModel. The engine is tuned on this model only. Each variant is one look of the palm with the
 * 'medium' setting's per-capture crease jitter, depth jitter and secondary-crease dropout; the camera's
 * effects are left to camera.ts.
 */
import { createIdentity, renderSurface } from '../../packages/palm/src/synthetic';
import type { PalmIdentity, PalmModel } from './palm-model';

export const modelA: PalmModel = {
  name: 'A',
  identity(seed: number, index: number): PalmIdentity {
    const palm = createIdentity(seed, index);
    return { surface: (variant, size) => renderSurface(palm, variant, size, 'medium') };
  },
};
