/**
 * Score statistics shared by `npm run bench:palm`, `npm run bench:palm-calibrate` and the threshold test:
 * error rates over sorted genuine and impostor distances, and the impostor tail's fit.
 */
import { normalQuantile, thresholdForFmr, type ImpostorModel } from '../packages/palm/src/search';

/** Distances (smaller is more alike), each array ascending. */
export interface Scores {
  genuine: Float64Array;
  impostor: Float64Array;
}

export function sorted(values: ArrayLike<number>, count = values.length): Float64Array {
  return Float64Array.from({ length: count }, (_, i) => values[i]!).sort();
}

export function scoresOf(genuine: ArrayLike<number>, impostor: ArrayLike<number>): Scores {
  return { genuine: sorted(genuine), impostor: sorted(impostor) };
}

/** Number of values ≤ t in an ascending array. */
export function countAtMost(values: Float64Array, t: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (values[mid]! <= t) low = mid + 1;
    else high = mid;
  }
  return low;
}

export const fmrAt = (s: Scores, t: number) => countAtMost(s.impostor, t) / s.impostor.length;
export const fnmrAt = (s: Scores, t: number) => 1 - countAtMost(s.genuine, t) / s.genuine.length;

/** Equal error rate: the crossing of FMR and FNMR, over every observed score as a threshold. */
export function equalErrorRate(s: Scores): number {
  if (s.genuine.length === 0 || s.impostor.length === 0) return NaN;
  const step = Math.max(1, Math.floor(s.impostor.length / 200_000));
  const candidates: number[] = [...s.genuine];
  for (let i = 0; i < s.impostor.length; i += step) candidates.push(s.impostor[i]!);
  let best = { gap: Infinity, rate: 1 };
  for (const t of candidates) {
    const fmr = fmrAt(s, t);
    const fnmr = fnmrAt(s, t);
    if (Math.abs(fmr - fnmr) < best.gap) best = { gap: Math.abs(fmr - fnmr), rate: (fmr + fnmr) / 2 };
  }
  return best.rate;
}

/**
 * FNMR at the threshold just under the k-th smallest impostor score, k = ⌊fmr·n⌋, so the measured FMR is
 * k/n ≤ fmr. Undefined when fewer than one impostor in n would be allowed.
 */
export function fnmrAtFmr(s: Scores, fmr: number): number | undefined {
  const k = Math.floor(fmr * s.impostor.length);
  if (k < 1 || s.genuine.length === 0) return undefined;
  const t = s.impostor[k]! - 1e-9;
  return fnmrAt(s, t);
}

/** Least-squares normal-tail fit (see ImpostorModel) of the impostor quantiles between FMR 1e-5 and 1e-1. */
export function fitImpostorTail(impostor: Float64Array): ImpostorModel {
  const xs: number[] = [];
  const ys: number[] = [];
  for (let e = -5; e <= -1; e += 0.25) {
    const f = 10 ** e;
    const k = Math.floor(f * impostor.length);
    if (k < 10) continue;
    xs.push(normalQuantile(f));
    ys.push(impostor[k]!);
  }
  if (xs.length < 2) throw new Error(`too few impostor scores (${impostor.length}) for a tail fit`);
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
  }
  const scale = sxy / sxx;
  return { location: my - scale * mx, scale };
}

/**
 * One normal-tail model whose thresholds are at or below every given model's over the operating range of
 * FMRs [lowFmr, highFmr]: each model's threshold is a line in z = Φ⁻¹(FMR), their lower envelope is concave
 * in z, so the chord through the envelope's values at the two ends lies under it on the whole range. The
 * threshold is then set by whichever model's tail is heaviest at each FMR (the conservative choice).
 */
export function envelopeModel(
  models: readonly ImpostorModel[],
  lowFmr: number,
  highFmr: number,
): ImpostorModel & { lowFrom: number; highFrom: number } {
  const z1 = normalQuantile(lowFmr);
  const z2 = normalQuantile(highFmr);
  const lowest = (fmr: number) =>
    models.reduce(
      (best, m, i) => {
        const t = thresholdForFmr(fmr, m);
        return t < best.t ? { t, i } : best;
      },
      { t: Infinity, i: -1 },
    );
  const a = lowest(lowFmr);
  const b = lowest(highFmr);
  const scale = (b.t - a.t) / (z2 - z1);
  return { location: a.t - scale * z1, scale, lowFrom: a.i, highFrom: b.i };
}

export function meanSd(values: Float64Array): { mean: number; sd: number } {
  let sum = 0;
  let sum2 = 0;
  for (const v of values) {
    sum += v;
    sum2 += v * v;
  }
  const mean = sum / values.length;
  return { mean, sd: Math.sqrt(Math.max(0, sum2 / values.length - mean * mean)) };
}

export function quantile(values: number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}

/** Upper end of the one-sided 95 % confidence interval of a rate with `k` events in `n` trials (Wilson). */
export function upper95(k: number, n: number): number {
  if (n === 0) return 1;
  const z = 1.645;
  const p = k / n;
  const centre = p + (z * z) / (2 * n);
  const spread = z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return Math.min(1, (centre + spread) / (1 + (z * z) / n));
}

export const pct = (x: number | undefined, digits = 3) =>
  x === undefined || Number.isNaN(x) ? 'n/a' : `${(100 * x).toFixed(digits)} %`;
export const ms = (x: number) => `${x.toFixed(x < 10 ? 2 : 1)} ms`;
