import { describe, expect, it } from 'vitest';
import { extractFeatures } from './features';
import { fuseFeatures } from './fusion';
import { coarseGridOf, TemplateProtector } from './protect';
import { mirroredFrame } from './roi';
import {
  COHORT_SIZE,
  DEFAULT_NORMALISED_IMPOSTOR_MODEL,
  MIN_COHORT_SD,
  NORMALISED_MARGIN,
  normalisedDecisionPolicy,
  normalisedScore,
  normaliseResult,
  normaliserFor,
} from './score-normalisation';
import {
  decide,
  galleryShapeOf,
  PalmGallery,
  refineResult,
  thresholdForFmr,
  verifyDistance,
  type SearchResult,
} from './search';
import { createIdentity, renderSample } from './synthetic';

const SEED = 4_242;
/** Palms of the mirrored-gallery attack: none of the other tests'. */
const MIRROR_SEED = 61_717;
const SIZE = 128;
const KEY = Uint8Array.from({ length: 32 }, (_, i) => 3 * i + 5);
const identities = Array.from({ length: 8 }, (_, i) => createIdentity(SEED, i));
const features = (identity: number, s: number) =>
  extractFeatures(renderSample(identities[identity]!, s, 'medium', SIZE), SIZE);

describe('cohort score normalisation', () => {
  const protector = new TemplateProtector(KEY);
  const normaliser = normaliserFor(protector);

  it('protects its cohort under the key and makes it once per protector', () => {
    expect(normaliser.templates).toHaveLength(COHORT_SIZE);
    expect(normaliser.mirroredTemplates).toHaveLength(COHORT_SIZE);
    expect(
      [...normaliser.templates, ...normaliser.mirroredTemplates].every((t) => t.keyId === protector.keyId),
    ).toBe(true);
    expect(normaliserFor(protector)).toBe(normaliser);
    expect(normaliserFor(new TemplateProtector(KEY))).not.toBe(normaliser);
  });

  it("reads a probe's distances against its own cohort: a mate far below it, an impostor within it", () => {
    const probe = protector.probe(features(0, 1));
    const stats = normaliser.stats(probe);
    // The cohort's palms are nobody's: the probe is an impostor to all of them.
    expect(stats.mean).toBeGreaterThan(0.6);
    expect(stats.sd).toBeGreaterThan(MIN_COHORT_SD);
    expect(stats.sd).toBeLessThan(0.05);
    const mate = normalisedScore(verifyDistance(protector.enrol(features(0, 0)), probe), stats);
    const impostors = [1, 2, 3, 4, 5].map((i) =>
      normalisedScore(verifyDistance(protector.enrol(features(i, 0)), probe), stats),
    );
    const threshold = thresholdForFmr(1e-6, DEFAULT_NORMALISED_IMPOSTOR_MODEL);
    expect(mate).toBeLessThan(threshold);
    for (const z of impostors) {
      expect(z).toBeGreaterThan(threshold);
      expect(Math.abs(z)).toBeLessThan(5);
    }
  });

  it('reads a mirrored palm against the mirrored half of the cohort, so mirrored palms do not look alike', () => {
    // A left hand from the guide box is stored mirrored, and a payment from it is searched both ways round.
    const mirroredFeatures = (identity: number, s: number) =>
      extractFeatures(mirroredFrame(renderSample(identities[identity]!, s, 'medium', SIZE), SIZE), SIZE);
    const threshold = thresholdForFmr(1e-4, DEFAULT_NORMALISED_IMPOSTOR_MODEL);
    for (const identity of [0, 1, 2]) {
      const drawn = normaliser.stats(protector.probe(features(identity, 1)));
      const probe = protector.probe(mirroredFeatures(identity, 1));
      const flipped = normaliser.stats(probe);
      // As far from its own kind as the palm as drawn is from its own.
      expect(Math.abs(flipped.mean - drawn.mean)).toBeLessThan(0.012);
      for (const other of [3, 4, 5, 6, 7]) {
        const stored = protector.enrol(mirroredFeatures(other, 0));
        expect(normalisedScore(verifyDistance(stored, probe), flipped)).toBeGreaterThan(threshold);
      }
      const mate = protector.enrol(mirroredFeatures(identity, 0));
      expect(normalisedScore(verifyDistance(mate, probe), flipped)).toBeLessThan(threshold);
    }
  });

  it('attack: strangers do not match palms stored mirrored more often than the policy targets', () => {
    // A left hand from the guide box is stored mirrored; a synthetic palm (the demo palm, the browser tests')
    // registered as a left hand is a palm the other way round from the cohort as drawn. Read against the drawn
    // half (as a third of such probes were, the orientation judged on a sample of the mirrored half with a
    // margin), a stranger's distances to every mirrored palm look close: 43 of 1,500 searches of a gallery of
    // 300 matched someone at a target of 1e-3 (bench: 2.9 %). Each probe is now read against the nearer half.
    // A scan as the server makes one: three captures of the palm fused.
    const mirroredPalm = (identity: number) => {
      const palm = createIdentity(MIRROR_SEED, identity);
      return fuseFeatures(
        [0, 1, 2].map((s) =>
          extractFeatures(mirroredFrame(renderSample(palm, s, 'medium', SIZE), SIZE), SIZE),
        ),
      ).features;
    };
    const GALLERY = 100;
    const STRANGERS = 300;
    const first = protector.enrol(mirroredPalm(0));
    const gallery = new PalmGallery(galleryShapeOf(first), GALLERY);
    gallery.add('palm-0', first);
    for (let i = 1; i < GALLERY; i++) gallery.add(`palm-${i}`, protector.enrol(mirroredPalm(i)));
    const policy = normalisedDecisionPolicy({ gallerySize: GALLERY, targetFpir: 1e-3 });
    let matched = 0;
    let matchedLoose = 0;
    const loose = normalisedDecisionPolicy({ gallerySize: GALLERY, targetFpir: 1e-2 });
    for (let i = GALLERY; i < GALLERY + STRANGERS; i++) {
      // Searched as a registration's duplicate check searches: the whole plan, the closest two polished.
      const scan = mirroredPalm(i);
      const probe = protector.probe(scan);
      const hasher = protector.prober(scan);
      const found = gallery.search(probe);
      const result = { ...found, ...refineResult(found, gallery, hasher, coarseGridOf(hasher.plan)) };
      const stats = normaliser.stats(probe);
      if (decide([normaliseResult(result, stats)], policy).outcome === 'match') matched++;
      if (decide([normaliseResult(result, stats)], loose).outcome === 'match') matchedLoose++;
    }
    // Within twice the target at either: 0.3 and 3 expected (read against the drawn half: 2 and 14).
    expect(matched).toBeLessThanOrEqual(1);
    expect(matchedLoose).toBeLessThanOrEqual(6);
    // About a minute on an idle machine, over two in CI's busy unit run: the bound is for a busy machine.
  }, 900_000);

  it('keeps the order of a search result and turns its gap into standard scores', () => {
    const result: SearchResult = {
      best: { id: 'a', distance: 0.5 },
      second: { id: 'b', distance: 0.6 },
      gallerySize: 2,
      candidates: 2,
    };
    const normalised = normaliseResult(result, { mean: 0.65, sd: 0.02 });
    expect(normalised.best).toEqual({ id: 'a', distance: expect.closeTo(-7.5, 9) });
    expect(normalised.second).toEqual({ id: 'b', distance: expect.closeTo(-2.5, 9) });
    expect(normaliseResult({ ...result, second: undefined }, { mean: 0.65, sd: 0.02 }).second).toBe(
      undefined,
    );
  });

  it("decides as the server does: the mate's scan accepted, a stranger's refused", () => {
    const enrolled = identities.map((_, i) => protector.enrol(features(i, 0)));
    const gallery = new PalmGallery(galleryShapeOf(enrolled[1]!), 8);
    for (let i = 1; i < identities.length; i++) gallery.add(`palm-${i}`, enrolled[i]!);
    const policy = normalisedDecisionPolicy({ gallerySize: gallery.size, targetFpir: 1e-3 });
    expect(policy.margin).toBe(NORMALISED_MARGIN);
    expect(policy.threshold).toBeCloseTo(
      thresholdForFmr(1e-3 / gallery.size, DEFAULT_NORMALISED_IMPOSTOR_MODEL),
      10,
    );
    const searchFor = (identity: number) => {
      const probe = protector.probe(features(identity, 2));
      return decide([normaliseResult(gallery.search(probe), normaliser.stats(probe))], policy);
    };
    expect(searchFor(3)).toMatchObject({ outcome: 'match', id: 'palm-3' });
    expect(searchFor(0)).toMatchObject({ outcome: 'no-match' });
  });
});
