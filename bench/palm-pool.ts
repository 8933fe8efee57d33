/**
 * The benchmark's worker threads (bench/palm-worker.ts): builds a configuration's scans and computes 1:1
 * distances in parallel over shared memory.
 */
import { Worker } from 'node:worker_threads';
import type { BuildConfig, BuildTally, ConfigBuffers, KindBuffers, WorkerTask } from './palm-worker';

export class Pool {
  private idle: Worker[];
  private waiting: (() => void)[] = [];
  readonly workers: Worker[];

  constructor(
    count: number,
    readonly key: Uint8Array,
  ) {
    // Worker threads do not inherit tsx's loader in Node 20: each registers it before importing the TS file.
    const source =
      `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})` +
      `.then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL('./palm-worker.ts', import.meta.url).href)}); })`;
    this.workers = Array.from(
      { length: count },
      () => new Worker(source, { eval: true, workerData: { key } }),
    );
    this.idle = [...this.workers];
  }

  async run<T>(task: WorkerTask): Promise<T> {
    while (this.idle.length === 0) await new Promise<void>((resolve) => this.waiting.push(resolve));
    const worker = this.idle.pop()!;
    try {
      return await new Promise<T>((resolve, reject) => {
        const onError = (error: Error) => reject(error);
        worker.once('error', onError);
        worker.once('message', (value: T) => {
          worker.off('error', onError);
          resolve(value);
        });
        worker.postMessage(task);
      });
    } finally {
      this.idle.push(worker);
      this.waiting.shift()?.();
    }
  }

  /** Builds identities [0, identities) of a configuration, in chunks; the tallies summed. */
  async build(
    config: BuildConfig,
    buffers: ConfigBuffers,
    identities: number,
    chunk = 5,
  ): Promise<BuildTally> {
    const jobs: Promise<BuildTally>[] = [];
    for (let from = 0; from < identities; from += chunk) {
      jobs.push(this.run({ task: 'build', config, buffers, from, to: Math.min(identities, from + chunk) }));
    }
    const total: BuildTally = {
      capture_ms: 0,
      extract_ms: 0,
      protect_ms: 0,
      fuse_ms: 0,
      scans: 0,
      frames: 0,
      refused: 0,
      issues: {},
      firstIssue: {},
      extraHolds: 0,
      dataPoints: 0,
      dataPointScans: 0,
    };
    for (const t of await Promise.all(jobs)) {
      total.capture_ms += t.capture_ms;
      total.extract_ms += t.extract_ms;
      total.protect_ms += t.protect_ms;
      total.fuse_ms += t.fuse_ms;
      total.scans += t.scans;
      total.frames += t.frames;
      total.refused += t.refused;
      total.extraHolds += t.extraHolds;
      total.dataPoints += t.dataPoints;
      total.dataPointScans += t.dataPointScans;
      for (const [k, v] of Object.entries(t.issues)) total.issues[k] = (total.issues[k] ?? 0) + v;
      for (const [k, v] of Object.entries(t.firstIssue)) total.firstIssue[k] = (total.firstIssue[k] ?? 0) + v;
    }
    return total;
  }

  /** Distances of `total` (probe slot, gallery slot) pairs: full, coarse, and raw for the first `rawCount`. */
  async compare(buffers: KindBuffers, pairs: Int32Array, rawCount = 0) {
    const total = pairs.length / 2;
    const shared = new SharedArrayBuffer(pairs.byteLength);
    new Int32Array(shared).set(pairs);
    const fine = new SharedArrayBuffer(total * 4);
    const coarse = new SharedArrayBuffer(total * 4);
    const raw = rawCount > 0 ? new SharedArrayBuffer(Math.min(rawCount, total) * 4) : undefined;
    const jobs: Promise<unknown>[] = [];
    const step = 20_000;
    for (let from = 0; from < total; from += step) {
      jobs.push(
        this.run({
          task: 'compare',
          buffers,
          pairs: shared,
          fine,
          coarse,
          raw,
          from,
          to: Math.min(total, from + step),
        }),
      );
    }
    await Promise.all(jobs);
    return {
      fine: new Float32Array(fine),
      coarse: new Float32Array(coarse),
      raw: raw ? new Float32Array(raw) : new Float32Array(0),
    };
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }
}
