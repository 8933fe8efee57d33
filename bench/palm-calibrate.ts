/**
 * npm run bench:palm-calibrate — the engine's impostor model of normalised scores
 * (DEFAULT_NORMALISED_IMPOSTOR_MODEL in packages/palm/src/score-normalisation.ts, which the server's decision
 * threshold comes from) fitted to normalised impostor scores of model A (the engine's own generator) at all
 * three nuisance levels, on the calibration seeds (bench/palm-capture.ts SEEDS; the benchmark reports on other
 * seeds, the threshold test on held-back ones). Model B is held out: it is not calibrated on (--models A by
 * default), only measured against the result.
 *
 * The server's protocol: a payment scan (a hold's frames fused) against registrations (a hold's frames fused),
 * every ordered pair of two different people, each distance read against the payment scan's cohort
 * (score-normalisation.ts). Each model × level's lower tail is fitted as a normal tail on
 * FMR 1e-5…1e-1 (as far down as the sample reaches); the model printed is the chord of the fits' lower
 * envelope over the FMRs the server works at (1e-3 / N for N from 1 to 10^6): at every such FMR its
 * threshold is at or below every model × level's own, so the tail that is heaviest there sets it.
 *
 * Options: --identities N (per model and level; N × (N − 1) impostor pairs) --workers W --models A,B
 *          --levels easy,medium,hard --enrol-holds K (registrations fused from K holds, decision 049; the
 *          server registers 1)
 */
import { availableParallelism } from 'node:os';
import { thresholdForFmr, type ImpostorModel } from '../packages/palm/src/search';
import { DEFAULT_NORMALISED_IMPOSTOR_MODEL } from '../packages/palm/src/score-normalisation';
import type { NuisanceLevel } from './palm-data/camera';
import { LEVEL_NAMES, MODEL_NAMES, SEEDS, type ModelName } from './palm-capture';
import { BIG_N, FPIR_TARGET } from './palm-cascade';
import { Pool } from './palm-pool';
import { fusedImpostorScores } from './palm-impostors';
import { countAtMost, envelopeModel, fitImpostorTail } from './palm-scores';

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const value = Number(process.argv[i + 1]);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} needs a positive number`);
  return value;
}

function listOption(name: string, fallback: string[]): string[] {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? fallback : process.argv[i + 1]!.split(',');
}

const IDENTITIES = option('identities', 300);
const WORKERS = option('workers', Math.max(1, Math.min(2, availableParallelism())));
const RUN_MODELS = listOption('models', ['A']) as ModelName[];
for (const m of RUN_MODELS) if (!MODEL_NAMES.includes(m)) throw new Error(`unknown model ${m}`);
const RUN_LEVELS = listOption('levels', [...LEVEL_NAMES]) as NuisanceLevel[];
const ENROL_HOLDS = option('enrol-holds', 1);
if (!Number.isInteger(ENROL_HOLDS)) throw new Error('--enrol-holds must be a whole number');
/** The FMRs the server's thresholds are set at: FPIR_TARGET / N for galleries of 1 to BIG_N entries. */
const LOW_FMR = FPIR_TARGET / BIG_N;
const HIGH_FMR = FPIR_TARGET;
const KEY = Uint8Array.from({ length: 32 }, (_, i) => (i * 41 + 7) & 0xff);

async function main(): Promise<void> {
  const started = performance.now();
  if (ENROL_HOLDS > 1) console.log(`registrations fused from ${ENROL_HOLDS} holds (decision 049)`);
  const pool = new Pool(WORKERS, KEY);
  const fits: { model: ModelName; level: NuisanceLevel; fit: ImpostorModel; impostor: Float64Array }[] = [];
  for (const level of RUN_LEVELS) {
    for (const model of RUN_MODELS) {
      const impostor = (
        await fusedImpostorScores(pool, model, level, SEEDS.calibration, IDENTITIES, ENROL_HOLDS)
      ).normalised;
      const fit = fitImpostorTail(impostor);
      fits.push({ model, level, fit, impostor });
      console.log(
        `model ${model}, ${level}: ${impostor.length} impostor pairs, mean ${(impostor.reduce((a, b) => a + b, 0) / impostor.length).toFixed(4)}, ` +
          `smallest ${impostor[0]!.toFixed(4)}; normal-tail fit location ${fit.location.toFixed(4)}, scale ${fit.scale.toFixed(4)}; ` +
          `threshold at FMR 1e-3 ${thresholdForFmr(1e-3, fit).toFixed(4)}, at 1e-9 ${thresholdForFmr(LOW_FMR, fit).toFixed(4)}`,
      );
    }
  }
  await pool.close();
  const envelope = envelopeModel(
    fits.map((f) => f.fit),
    LOW_FMR,
    HIGH_FMR,
  );
  const model = { location: Number(envelope.location.toFixed(3)), scale: Number(envelope.scale.toFixed(3)) };
  const name = (i: number) => `model ${fits[i]!.model} ${fits[i]!.level}`;
  console.log('');
  console.log(
    `Envelope over FMR ${LOW_FMR.toExponential(0)}…${HIGH_FMR.toExponential(0)}: set at ${LOW_FMR.toExponential(0)} by ` +
      `${name(envelope.lowFrom)}, at ${HIGH_FMR.toExponential(0)} by ${name(envelope.highFrom)}.`,
  );
  console.log(
    "Measured FMR at the new model's thresholds (calibration scores), and at the current default's:",
  );
  for (const f of fits) {
    const at = (m: ImpostorModel, fmr: number) => {
      const k = countAtMost(f.impostor, thresholdForFmr(fmr, m));
      return `${(k / f.impostor.length).toExponential(2)} (${k})`;
    };
    console.log(
      `  model ${f.model} ${f.level}: new 1e-3 → ${at(model, 1e-3)}, 1e-4 → ${at(model, 1e-4)}, 1e-5 → ${at(model, 1e-5)}; ` +
        `current 1e-3 → ${at(DEFAULT_NORMALISED_IMPOSTOR_MODEL, 1e-3)}`,
    );
  }
  console.log('');
  console.log(
    `export const DEFAULT_NORMALISED_IMPOSTOR_MODEL: Readonly<ImpostorModel> = { location: ${model.location}, scale: ${model.scale} };`,
  );
  console.log(`(${((performance.now() - started) / 1000).toFixed(0)} s)`);
}

await main();
