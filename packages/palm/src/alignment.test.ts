import { describe, expect, it } from 'vitest';
import { extractFeatures } from './features';
import { DEFAULT_ALIGNMENT_PLAN, TemplateProtector, type AlignmentPlan } from './protect';
import { DEFAULT_IMPOSTOR_MODEL, thresholdForFmr, verifyDistance } from './search';
import { createIdentity, renderSample } from './synthetic';
import { warpRoi } from './roi-warp-fixture';

const SIZE = 128;
const protector = new TemplateProtector(Uint8Array.from({ length: 32 }, (_, i) => (i * 7 + 3) & 0xff));

const warp = (image: Uint8Array, rotation_deg: number, dx: number, dy: number, scale: number) =>
  warpRoi(image, SIZE, rotation_deg, dx, dy, scale);

const palms = [11, 12, 13].map((i) => renderSample(createIdentity(2026, i), 0, 'easy', SIZE));
const enrolled = palms.map((roi) => protector.enrol(extractFeatures(roi, SIZE)));
const distanceOfCopy = (
  palm: number,
  rotation_deg: number,
  dx: number,
  dy: number,
  scale: number,
  plan: Readonly<AlignmentPlan> = DEFAULT_ALIGNMENT_PLAN,
) =>
  verifyDistance(
    enrolled[palm]!,
    protector.probe(extractFeatures(warp(palms[palm]!, rotation_deg, dx, dy, scale), SIZE), plan),
  );

/** Where the engine's impostor model puts a false-match rate of 1e-6, and that model's mean. */
const THRESHOLD_1E6 = thresholdForFmr(1e-6);
const IMPOSTOR_MEAN = DEFAULT_IMPOSTOR_MODEL.location;

describe('the alignment search', () => {
  // Poses inside the plan's range (±25°, scale 0.91–1.09 with half a step beyond, ±4 cells = ±16 px), each
  // between its grid points, on each palm: the last two beyond the ±15° / ±3 cells it searched before.
  const inside: [rotation_deg: number, dx: number, dy: number, scale: number][] = [
    [12.5, 6, -5, 1.06],
    [-14, -9, 7, 0.93],
    [7.5, 10, 10, 1.08],
    [-3, -11, 2, 0.9],
    [22.5, 14, -6, 1.04],
    [-23, -5, 15, 0.96],
  ];

  it.each(inside)(
    'matches a copy turned %s°, moved (%s, %s) px and zoomed %s× under the threshold for FMR 1e-6',
    (rotation_deg, dx, dy, scale) => {
      for (let palm = 0; palm < palms.length; palm++) {
        expect(distanceOfCopy(palm, rotation_deg, dx, dy, scale)).toBeLessThan(THRESHOLD_1E6);
      }
    },
  );

  it('owes those matches to the search: with no alignment the same copies look like another palm', () => {
    const none: AlignmentPlan = {
      rotations_deg: [0],
      maxShift_cells: 0,
      coarseRotations_deg: [0],
      coarseShifts: [[0, 0]],
    };
    for (const [rotation_deg, dx, dy, scale] of inside) {
      expect(distanceOfCopy(0, rotation_deg, dx, dy, scale, none)).toBeGreaterThan(THRESHOLD_1E6);
    }
  });

  it('does not reach far past its range: such copies score like an impostor', () => {
    const beyond: [number, number, number, number][] = [
      [40, 0, 0, 1],
      [-40, 0, 0, 1],
      [0, 28, 0, 1],
      [0, 0, -28, 1],
      [0, 0, 0, 1.35],
    ];
    for (const [rotation_deg, dx, dy, scale] of beyond) {
      for (let palm = 0; palm < palms.length; palm++) {
        const distance = distanceOfCopy(palm, rotation_deg, dx, dy, scale);
        expect(distance).toBeGreaterThan(THRESHOLD_1E6);
        expect(distance).toBeGreaterThan(IMPOSTOR_MEAN - 3 * DEFAULT_IMPOSTOR_MODEL.scale);
      }
    }
  });
});
