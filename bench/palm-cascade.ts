/**
 * The extrapolation of `npm run bench:palm` to a gallery of BIG_N = 10^6 (the operating point):
 * stage 2's FNMR at the server's threshold for that N, plus stage 1's misses (the shortlist of BIG_CANDIDATES
 * and the cascade's first passes, search.ts `cascadeBlock`), measured on a configuration's fused scans.
 */
import type { TemplateProtector } from '../packages/palm/src/protect';
import { createRng } from '../packages/palm/src/random';
import {
  CASCADE_BLOCK_ENTRIES,
  CASCADE_KEEP_DIVISOR,
  CASCADE_LEAD_KEEP_DIVISOR,
  cascadeHeadWords,
  cascadeLeadWords,
  shortlistFor,
  symbolMismatches,
} from '../packages/palm/src/search';
import { normalisedDecisionPolicy } from '../packages/palm/src/score-normalisation';
import { countAtMost, pct } from './palm-scores';
import { probeOf, templateOf, type KindBuffers, type Layout } from './palm-worker';

export const BIG_N = 1_000_000;
/** Stage 1's shortlist at N = 10^6, as the server asks for it (search.ts shortlistFor). */
export const BIG_CANDIDATES = shortlistFor(BIG_N);
/** The server's FPIR target (apps/server/src/palm/palm-service.ts TARGET_FPIR). */
export const FPIR_TARGET = 1e-3;

type Rng = ReturnType<typeof createRng>;

/**
 * Stage 1's cascade (search.ts `cascadeBlock`) at N = BIG_N, measured on a kind's templates: the lead, the
 * head and the whole coarse distance of every mated pair (`mates`: probe slot, gallery slot) and of
 * `impostors` random pairs of one identity's probe slot and another's gallery slot. A mate is lost in the
 * first pass if at least 1/`leadDivisor` of the impostors have a lead at or below its own (each block keeps
 * that fraction by the leads); in the second if at least 1/`headDivisor` of the impostors both pass the
 * first (a lead at or below that fraction's cut) and have a head at or below the mate's (the block keeps
 * that fraction of its entries by the heads of those); in the third if at least BIG_CANDIDATES of BIG_N
 * impostors pass both passes and have a whole coarse distance at or below the mate's. Ties count against
 * the mate, as for the shortlist; `withoutCascade` is the shortlist estimate alone.
 */
export function cascadeStage1Misses(
  protector: TemplateProtector,
  shape: Layout,
  seed: number,
  kind: KindBuffers,
  mates: [probe: number, gallery: number][],
  impostorPair: (rng: Rng) => [probe: number, gallery: number],
  impostors: number,
  leadDivisor = CASCADE_LEAD_KEEP_DIVISOR,
  headDivisor = CASCADE_KEEP_DIVISOR,
): { firstPass: number; miss: number; withoutCascade: number } {
  const leadWords = cascadeLeadWords(shape.coarseWords);
  const headWords = cascadeHeadWords(shape.coarseWords);
  const leadBins = (leadWords * 32) / protector.symbolBits + 1;
  const headBins = (headWords * 32) / protector.symbolBits + 1;
  const wholeBins = protector.parameters.coarseHashes + 1;
  const distances = (probeSlot: number, gallerySlot: number): [number, number, number] => {
    const probe = probeOf(protector, shape, kind, probeSlot).coarse;
    const stored = templateOf(protector, shape, kind, gallerySlot).words;
    let lead = Infinity;
    let head = Infinity;
    let whole = Infinity;
    for (let a = 0; a < shape.coarseAlignments; a++) {
      const at = a * shape.coarseWords;
      // Leads and heads under the first passes' alignments only, whole prefixes under all.
      if (a < shape.firstPassAlignments) {
        lead = Math.min(lead, symbolMismatches(stored, 0, probe, at, leadWords, protector.symbolBits));
        head = Math.min(head, symbolMismatches(stored, 0, probe, at, headWords, protector.symbolBits));
      }
      whole = Math.min(
        whole,
        symbolMismatches(stored, 0, probe, at, shape.coarseWords, protector.symbolBits),
      );
    }
    return [lead, head, whole];
  };
  const rng = createRng(seed ^ 0xca5c);
  const leads = new Uint16Array(impostors);
  const heads = new Uint16Array(impostors);
  const wholes = new Uint16Array(impostors);
  const leadAtMost = new Float64Array(leadBins);
  const wholeAtMost = new Float64Array(wholeBins);
  for (let k = 0; k < impostors; k++) {
    [leads[k], heads[k], wholes[k]] = distances(...impostorPair(rng));
    leadAtMost[leads[k]!]!++;
    wholeAtMost[wholes[k]!]!++;
  }
  const accumulate = (counts: Float64Array) => {
    for (let t = 1; t < counts.length; t++) counts[t]! += counts[t - 1]!;
  };
  /** The smallest distance with at least `fraction` of the impostors at or below it. */
  const cutOf = (atMost: Float64Array, fraction: number) => {
    let cut = 0;
    while (cut < atMost.length - 1 && atMost[cut]! / impostors < fraction) cut++;
    return cut;
  };
  accumulate(leadAtMost);
  accumulate(wholeAtMost);
  const leadCut = cutOf(leadAtMost, 1 / leadDivisor);
  // Impostors past the first pass, by head distance (cumulative); past both, by whole distance.
  const headPassedAtMost = new Float64Array(headBins);
  for (let k = 0; k < impostors; k++) if (leads[k]! <= leadCut) headPassedAtMost[heads[k]!]!++;
  accumulate(headPassedAtMost);
  const headCut = cutOf(headPassedAtMost, 1 / headDivisor);
  const passedAtMost = new Float64Array(wholeBins);
  for (let k = 0; k < impostors; k++) {
    if (leads[k]! <= leadCut && heads[k]! <= headCut) passedAtMost[wholes[k]!]!++;
  }
  accumulate(passedAtMost);
  let first = 0;
  let second = 0;
  let third = 0;
  let without = 0;
  for (const [probe, gallery] of mates) {
    const [lead, head, whole] = distances(probe, gallery);
    if ((BIG_N * wholeAtMost[whole]!) / impostors >= BIG_CANDIDATES) without++;
    if (leadAtMost[lead]! / impostors >= 1 / leadDivisor) first++;
    else if (headPassedAtMost[head]! / impostors >= 1 / headDivisor) second++;
    else if ((BIG_N * passedAtMost[whole]!) / impostors >= BIG_CANDIDATES) third++;
  }
  return {
    firstPass: (first + second) / mates.length,
    miss: (first + second + third) / mates.length,
    withoutCascade: without / mates.length,
  };
}

/**
 * FNIR extrapolated to a gallery of BIG_N: stage 2's FNMR at the server's threshold for BIG_N entries
 * (normalisedDecisionPolicy, as palm-service.ts calls it, over the mates' normalised scores), plus stage 1's misses:
 * mates whose coarse distance ≥ BIG_CANDIDATES of BIG_N unrelated entries would beat (from the measured
 * coarse impostor distribution), and those the cascade's first passes add.
 */
export function extrapolateToBigN(
  mateNormalised: Float64Array,
  mateCoarse: Float64Array,
  coarseImpostor: Float64Array,
  cascade: { firstPass: number; miss: number; withoutCascade: number },
): {
  threshold: number;
  fnmr: number;
  miss: number;
  shortlistMiss: number;
  cascadeAdds: number;
  fnir: number;
} {
  if (mateNormalised.length !== mateCoarse.length) throw new Error('mates differ between the stages');
  const threshold = normalisedDecisionPolicy({ gallerySize: BIG_N, targetFpir: FPIR_TARGET }).threshold;
  let fineMiss = 0;
  let coarseMiss = 0;
  let either = 0;
  for (let m = 0; m < mateCoarse.length; m++) {
    // Expected number of unrelated entries scoring at least as well as the mate in stage 1.
    const ahead = BIG_N * (countAtMost(coarseImpostor, mateCoarse[m]!) / coarseImpostor.length);
    const lost = ahead >= BIG_CANDIDATES;
    const rejected = mateNormalised[m]! > threshold;
    if (lost) coarseMiss++;
    if (rejected) fineMiss++;
    if (lost || rejected) either++;
  }
  const n = Math.max(1, mateCoarse.length);
  // The cascade's first pass adds the mates it loses that the shortlist alone would have kept (measured on
  // the cascade's own impostor sample).
  const shortlistMiss = coarseMiss / n;
  const cascadeAdds = Math.max(0, cascade.miss - cascade.withoutCascade);
  return {
    threshold,
    fnmr: fineMiss / n,
    miss: shortlistMiss + cascadeAdds,
    shortlistMiss,
    cascadeAdds,
    // A mate is lost when either stage loses it (counted once).
    fnir: Math.min(1, either / n + cascadeAdds),
  };
}

/** The cascade's part of stage 1's misses, as the extrapolation line says it. */
export function cascadeNote(big: { miss: number; shortlistMiss: number; cascadeAdds: number }): string {
  return (
    `(the shortlist ${pct(big.shortlistMiss, 2)}; the cascade's first passes, each block of ${CASCADE_BLOCK_ENTRIES.toLocaleString('en-US')} ` +
    `keeping the best 1/${CASCADE_LEAD_KEEP_DIVISOR} by the lead of the coarse prefix and of those the best ` +
    `1/${CASCADE_KEEP_DIVISOR} of the block by the head, add ${pct(big.cascadeAdds, 3)})`
  );
}
