import { describe, expect, it } from 'vitest';
import { extractFeatures } from './features';
import { coarseGridOf, DEFAULT_ALIGNMENT_PLAN, fineAlignmentsOf, TemplateProtector } from './protect';
import {
  DEFAULT_SEARCH_CANDIDATES,
  PalmGallery,
  galleryShapeOf,
  polishDistance,
  refineAlignment,
  refineResult,
  shortlistFor,
  verifyDistance,
} from './search';
import { createIdentity, renderSample } from './synthetic';

const SIZE = 128;
const protector = new TemplateProtector(Uint8Array.from({ length: 32 }, (_, i) => (i * 11 + 5) & 0xff));
const features = (identity: number, sample: number) =>
  extractFeatures(renderSample(createIdentity(2026, identity), sample, 'medium', SIZE), SIZE);
const plan = DEFAULT_ALIGNMENT_PLAN;
const span = 2 * plan.maxShift_cells + 1;
const fullGrid = (plan.scales ?? [1]).flatMap((_, s) =>
  plan.rotations_deg.flatMap((__, r) =>
    Array.from({ length: span * span }, (___, k) => ({
      r,
      s,
      dx: (k % span) - plan.maxShift_cells,
      dy: Math.floor(k / span) - plan.maxShift_cells,
    })),
  ),
);

describe('stage 2 coarse to fine', () => {
  const probeFeatures = features(1, 1);
  const enrolled = [1, 2, 3, 4].map((i) => protector.enrol(features(i, 0)));

  it('hashes each alignment as the full probe does, and the plan coarse prefixes alike', () => {
    const full = protector.probe(probeFeatures);
    const hasher = protector.prober(probeFeatures);
    expect(fullGrid).toHaveLength(fineAlignmentsOf(plan));
    const lazy = hasher.probe(fullGrid);
    expect(lazy.fine).toEqual(full.fine);
    expect(lazy.coarse).toEqual(full.coarse);
    expect(hasher.hashed).toBe(fullGrid.length);
  });

  it('the coarse grid is a subset within one step of every alignment', () => {
    const grid = coarseGridOf(plan);
    expect(grid.length).toBeLessThan(fullGrid.length / 10);
    for (const a of fullGrid) {
      expect(
        grid.some(
          (g) =>
            Math.abs(g.r - a.r) <= 1 &&
            Math.abs(g.s - a.s) <= 1 &&
            Math.abs(g.dx - a.dx) <= 1 &&
            Math.abs(g.dy - a.dy) <= 1,
        ),
      ).toBe(true);
    }
  });

  it('refines to no less than the full plan, to it from the full grid, and hashes a fraction', () => {
    const full = protector.probe(probeFeatures);
    const grid = coarseGridOf(plan);
    const hasher = protector.prober(probeFeatures);
    const template = enrolled[0]!;
    const genuine =
      refineAlignment(template.words, hasher, grid, template.symbolBits).mismatches / template.hashes;
    expect(genuine).toBeGreaterThanOrEqual(verifyDistance(template, full));
    expect(genuine).toBeLessThan(0.55);
    expect(hasher.hashed).toBeLessThan(fullGrid.length / 2);
    for (const template of enrolled) {
      const exact = refineAlignment(
        template.words,
        protector.prober(probeFeatures),
        fullGrid,
        template.symbolBits,
      ).mismatches;
      expect(exact / template.hashes).toBe(verifyDistance(template, full));
    }
  });

  it('re-scores the best and the runner-up of a coarse-grid search, and names the same best as the full plan', () => {
    const gallery = new PalmGallery(galleryShapeOf(enrolled[0]!));
    enrolled.forEach((template, i) => gallery.add(`palm-${i}`, template));
    const grid = coarseGridOf(plan);
    const hasher = protector.prober(probeFeatures);
    const coarse = gallery.search(hasher.probe(grid));
    const refined = refineResult(coarse, gallery, hasher, grid, null);
    const full = gallery.search(protector.probe(probeFeatures));
    expect(refined.best!.id).toBe('palm-0');
    expect(refined.best!.id).toBe(full.best!.id);
    expect(refined.best!.distance).toBeLessThanOrEqual(coarse.best!.distance);
    expect(refined.best!.distance).toBeGreaterThanOrEqual(full.best!.distance);
    expect(refined.second!.distance).toBeLessThanOrEqual(coarse.second!.distance);
    expect(refined.second!.distance).toBeGreaterThanOrEqual(full.second!.distance);
  });
});

describe('stage 2 polish', () => {
  /** A palm's ROI moved by `dx` pixels to the right (edge pixels repeated). */
  const shifted = (image: Uint8Array, dx: number) =>
    Uint8Array.from(image, (_, i) => {
      const x = i % SIZE;
      return image[i - x + Math.min(SIZE - 1, Math.max(0, x - dx))]!;
    });

  it('hashes a pose of the grid exactly as the grid alignment', () => {
    const hasher = protector.prober(features(1, 1));
    for (const a of [fullGrid[0]!, fullGrid[500]!, fullGrid[fullGrid.length - 1]!]) {
      const pose = {
        rotation_deg: plan.rotations_deg[a.r]!,
        scale: plan.scales![a.s]!,
        dx_cells: a.dx,
        dy_cells: a.dy,
      };
      expect(hasher.atPose(pose)).toEqual(hasher.at(a));
    }
    expect(() => hasher.atPose({ rotation_deg: 0, dx_cells: 4.6, dy_cells: 0 })).toThrow(RangeError);
  });

  it('matches a half-cell-shifted copy of a palm closer than the refinement on the grid does', () => {
    // A cell is 4 px of the 128 px ROI: 2 px is half a cell, the worst case of the grid's whole-cell shifts.
    const grid = coarseGridOf(plan);
    const image = renderSample(createIdentity(2026, 7), 0, 'easy', SIZE);
    const original = protector.enrol(extractFeatures(image, SIZE));
    const gains: number[] = [];
    for (const dx of [2, -2]) {
      const hasher = protector.prober(extractFeatures(shifted(image, dx), SIZE));
      const refined = refineAlignment(original.words, hasher, grid, original.symbolBits);
      const polished = polishDistance(original.words, hasher, refined.alignment, original.symbolBits);
      expect(polished).toBeLessThanOrEqual(refined.mismatches);
      expect(hasher.polished).toBeGreaterThan(0);
      gains.push((refined.mismatches - polished) / original.hashes);
    }
    // The polished distance drops by more than 0.06 (about 0.12-0.16 here; an impostor's spread is about 0.017).
    for (const gain of gains) expect(gain).toBeGreaterThan(0.06);
  });

  it('never scores above the refinement, and re-orders a gallery search as the refinement does', () => {
    const grid = coarseGridOf(plan);
    const enrolled = [1, 2, 3, 4].map((i) => protector.enrol(features(i, 0)));
    const gallery = new PalmGallery(galleryShapeOf(enrolled[0]!));
    enrolled.forEach((template, i) => gallery.add(`palm-${i}`, template));
    const hasher = protector.prober(features(1, 1));
    const coarse = gallery.search(hasher.probe(grid));
    const plain = refineResult(coarse, gallery, hasher, grid, null);
    const polished = refineResult(coarse, gallery, hasher, grid);
    expect(polished.best!.id).toBe('palm-0');
    expect(polished.best!.distance).toBeLessThanOrEqual(plain.best!.distance);
    expect(polished.second!.distance).toBeLessThanOrEqual(plain.second!.distance);
  });
});

describe('the shortlist by gallery size', () => {
  it('keeps the default in small galleries and about one per thousand entries up to 1,024 at 10^6', () => {
    expect(shortlistFor(0)).toBe(DEFAULT_SEARCH_CANDIDATES);
    expect(shortlistFor(10_000)).toBe(DEFAULT_SEARCH_CANDIDATES);
    expect(shortlistFor(100_000)).toBe(128);
    expect(shortlistFor(1_000_000)).toBe(1024);
    expect(shortlistFor(16_000_000)).toBe(1024);
  });
});
