/// <reference types="node" />
/**
 * Node only: stage 1 of the 1:N search split over worker threads. Every worker instantiates the WebAssembly
 * kernel (wasm-search.ts) on the gallery's shared memory and runs blocks of stage 1's cascade (search.ts's
 * `cascadeBlock`), each writing its survivors into the shared memory; the calling thread then runs the
 * shortlist and stage 2 as `PalmGallery.search` does, on the very same survivors, so the results are those
 * of the one-thread search. Small galleries, shapes the kernel
 * does not handle, and a pool whose workers failed search on the calling thread; every result says which
 * path its stage 1 took.
 *
 * The workers' code is a few lines of plain JavaScript evaluated in the thread (no TypeScript loader, no file
 * to resolve), so it runs the same under tsx, Vitest and built JavaScript; the compiled module is posted to
 * them.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ProbeTemplates } from './protect';
import { CASCADE_BLOCK_ENTRIES, firstPassAlignments, searchCandidates, type SearchResult } from './search';
import {
  blockKeeps,
  blocksOf,
  coarseScanBytes,
  type CoarseScanKernel,
  type WasmPalmGallery,
} from './wasm-search';

/** How stage 1 ran: not at all (gallery within the shortlist), JS, the kernel on this thread, or workers. */
export type Stage1Path = 'none' | 'js' | 'wasm' | 'workers';

export interface ParallelSearchResult extends SearchResult {
  stage1: Stage1Path;
  /** Blocks of stage 1 run by the workers (0 unless stage 1 ran in workers). */
  shards: number;
}

/**
 * Galleries from this size on are scanned by workers by default. Measured by `npm run bench:palm` on the
 * 2-core machine: at 3·10^4 to 10^5 entries the workers' p50 equalled the kernel on the calling thread (the
 * messages and the wake-ups cost what the second core saves) with a worse p95; at 10^6 they took about a
 * quarter off. From 10^5 on they also keep the event loop free for the search's longest part.
 */
export const DEFAULT_PARALLEL_FROM = 100_000;

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
let module;
let next;
const kernels = new Map();
parentPort.on('message', (m) => {
  if (m.bytes) { module = new WebAssembly.Module(m.bytes); next = new Int32Array(m.next); return; }
  if (m.drop !== undefined) { kernels.delete(m.drop); return; }
  try {
    if (m.memory) {
      const { cascade } = new WebAssembly.Instance(module, { env: { memory: m.memory } }).exports;
      kernels.set(m.kernel, { cascade, memory: m.memory });
    }
    const { cascade, memory } = kernels.get(m.kernel);
    const counts = new Int32Array(memory.buffer, m.counts, m.keeps.length / 2);
    const started = performance.now();
    let shards = 0;
    // Blocks are taken from the shared counter until none is left: a worker that runs slower takes fewer.
    // keeps: each block's lead keep and head keep, one after the other.
    for (let s = Atomics.add(next, 0, 1); s < counts.length; s = Atomics.add(next, 0, 1), shards++) {
      const from = s * m.block;
      const to = Math.min(m.size, from + m.block);
      const histogram = m.histograms + s * m.histogramBytes;
      counts[s] = cascade(m.heads, m.tails, m.headBytes, m.tailBytes, m.leadBytes, m.slices, m.probe, m.table,
        m.alignments, m.scores, histogram, histogram + m.scratchOffset, m.pairs + from * 8, from, to,
        m.keeps[2 * s], m.keeps[2 * s + 1], m.first);
    }
    const ended = performance.now();
    parentPort.postMessage({ id: m.id, ok: true, shards,
      from: performance.timeOrigin + started, to: performance.timeOrigin + ended });
  } catch (error) {
    parentPort.postMessage({ id: m.id, ok: false, error: String((error && error.stack) || error) });
  }
});
`;

interface Done {
  shards: number;
  /** When the worker started and ended its blocks (ms, performance.timeOrigin + performance.now()). */
  from: number;
  to: number;
}

/**
 * A parallel search's steps, in ms from the probe's posting to the workers: each worker's blocks (its first
 * taken to its last finished), the calling thread's wake-up after the last of them, and the result ready
 * (survivors collected, shortlist, stage 2). The workers' times are on their own clocks
 * (performance.timeOrigin + performance.now()), which may differ from this thread's by a little.
 */
export interface SearchTimeline {
  workers: { from: number; to: number }[];
  resumed: number;
  done: number;
}

interface Pending {
  resolve: (done: Done) => void;
  reject: (error: Error) => void;
}

interface PoolWorker {
  worker: Worker;
  /** Kernel id → memory generation this worker has instantiated. */
  kernels: Map<number, number>;
  pending: Map<number, Pending>;
}

export class PalmSearchPool {
  /** Number of workers (and shards). */
  readonly threads: number;
  /** Galleries smaller than this search on the calling thread. */
  readonly parallelFrom: number;
  /**
   * Whether the calling thread takes blocks of stage 1 too, beside the workers: the search then holds its
   * event loop for the blocks it runs (about 20 ms a search at 10^6 on a busy 2-core machine), and needs no
   * worker to be scheduled to make progress. Off by default: the server's event loop stays free while the
   * workers search (decision 016); on a busy machine it cut the p95 at 10^6 from 76 to 56 ms (bench/palm-search-speed.ts).
   */
  readonly callerTakesBlocks: boolean;
  #workers: PoolWorker[] | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #kernelIds = new WeakMap<CoarseScanKernel, number>();
  #nextKernel = 1;
  #nextMessage = 1;
  #failure: Error | undefined;
  #closed = false;
  /**
   * The blocks each worker took during the last parallel search (its time: `lastTimeline`), then those the
   * calling thread took if it takes blocks.
   */
  lastShardCounts: number[] = [];
  /** The steps of the last parallel search. */
  lastTimeline: SearchTimeline | undefined;
  /** The next block of the running search (shared with the workers). */
  readonly #next = new Int32Array(new SharedArrayBuffer(4));

  constructor(options: { threads?: number; parallelFrom?: number; callerTakesBlocks?: boolean } = {}) {
    this.threads = Math.max(1, options.threads ?? Math.min(2, availableParallelism()));
    this.parallelFrom = options.parallelFrom ?? DEFAULT_PARALLEL_FROM;
    this.callerTakesBlocks = options.callerTakesBlocks ?? false;
  }

  /** Why the workers stopped being used, if they failed. */
  get failure(): Error | undefined {
    return this.#failure;
  }

  /**
   * The gallery's best and second-best entries for the probe, as `gallery.search` finds them. Searches run
   * one at a time (they share the workers' probe and score areas).
   */
  search(
    gallery: WasmPalmGallery,
    probe: ProbeTemplates,
    options: { candidates?: number } = {},
  ): Promise<ParallelSearchResult> {
    const run = this.#queue.then(() => this.#search(gallery, probe, options));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** Stops the workers; later searches run on the calling thread. */
  async close(): Promise<void> {
    this.#closed = true;
    const workers = this.#workers ?? [];
    this.#workers = undefined;
    await Promise.all(workers.map(({ worker }) => worker.terminate()));
  }

  /** Lets the workers drop their instance of a gallery's memory (when the gallery is discarded). */
  forget(gallery: WasmPalmGallery): void {
    const id = gallery.kernel && this.#kernelIds.get(gallery.kernel);
    if (id === undefined) return;
    for (const w of this.#workers ?? []) {
      if (w.kernels.delete(id)) w.worker.postMessage({ drop: id });
    }
  }

  async #search(
    gallery: WasmPalmGallery,
    probe: ProbeTemplates,
    options: { candidates?: number },
  ): Promise<ParallelSearchResult> {
    const size = gallery.size;
    const kernel = gallery.kernel;
    const local = (): ParallelSearchResult => {
      const stage1: Stage1Path =
        size <= searchCandidates(options.candidates) ? 'none' : gallery.kernelScans(probe) ? 'wasm' : 'js';
      return { ...gallery.search(probe, options), stage1, shards: 0 };
    };
    if (
      !kernel ||
      size < this.parallelFrom ||
      size <= searchCandidates(options.candidates) ||
      this.#closed ||
      this.#failure
    ) {
      return local();
    }
    gallery.checkProbe(probe);
    if (!gallery.kernelScans(probe)) return local();
    const workers = this.#start();
    if (!workers) return local();
    const version = gallery.version;
    const generation = kernel.generation;
    const alignments = kernel.writeProbe(1, probe);
    // Workers take blocks from a shared counter as they become free, so a thread that runs slower (another
    // process on its core) takes fewer: measured here, with one half each, one of two workers often took a
    // third longer than the other.
    const candidates = searchCandidates(options.candidates);
    const shards = blocksOf(size);
    const keeps = Array.from({ length: shards }, (_, b) => blockKeeps(b, size, candidates)).flatMap(
      ({ lead, head }) => [lead, head],
    );
    Atomics.store(this.#next, 0, 0);
    const started = performance.timeOrigin + performance.now();
    let timeline: SearchTimeline;
    // The calling thread takes blocks too (callerTakesBlocks), from the same counter, while the workers wake
    // up: on a busy machine a worker may wait for a core for many milliseconds (measured on the 2-core
    // machine at 10^6 entries with other processes at a load average of 4 to 8: the later of two workers
    // started its first block 6 to 17 ms (p50) after the probe was posted), and the blocks it has not taken
    // are then run here. Measured so (bench/palm-search-speed.ts, the pools interleaved probe by probe, load
    // average 4.2): 2 workers 51.8 / 75.9 ms p50 / p95, 2 workers and this thread 40.3 / 55.8, 1 worker and
    // this thread 44.2 / 67.5; at 7.7: 56.4 / 80.1 against 47.6 / 64.1. This thread's event loop waits for
    // its blocks (about half of them on a busy machine); on an idle one the three took what the two did
    // (14.0 / 19.3 ms against 13.9 / 18.7, measured before).
    try {
      const first = firstPassAlignments(probe);
      const scans = workers.map((w) => this.#scan(w, kernel, alignments, first, size, keeps));
      let own = 0;
      if (this.callerTakesBlocks) {
        // The calling thread takes blocks from the same counter while the workers wake up and run.
        const counts = kernel.counts(1, size);
        for (let s = Atomics.add(this.#next, 0, 1); s < shards; s = Atomics.add(this.#next, 0, 1), own++) {
          counts[s] = kernel.cascadeBlock(
            1,
            alignments,
            s,
            size,
            { lead: keeps[2 * s]!, head: keeps[2 * s + 1]! },
            first,
          );
        }
      }
      const done = await Promise.all(scans);
      this.lastShardCounts = done.map((d) => d.shards);
      if (this.callerTakesBlocks) this.lastShardCounts.push(own);
      timeline = {
        workers: done.map((d) => ({ from: d.from - started, to: d.to - started })),
        resumed: performance.timeOrigin + performance.now() - started,
        done: 0,
      };
    } catch (error) {
      this.#fail(error instanceof Error ? error : new Error(String(error)));
      return local();
    }
    // An add or remove while the workers ran: their scores may be stale, so search again here.
    if (gallery.version !== version || kernel.generation !== generation) return local();
    const survivors = kernel.collect(1, size, kernel.counts(1, size), gallery.stage1Buffers(size));
    const result: ParallelSearchResult = {
      ...gallery.search(probe, { ...options, survivors }),
      stage1: 'workers',
      shards,
    };
    timeline.done = performance.timeOrigin + performance.now() - started;
    this.lastTimeline = timeline;
    return result;
  }

  #start(): PoolWorker[] | undefined {
    if (this.#workers) return this.#workers;
    try {
      const bytes = coarseScanBytes();
      this.#workers = Array.from({ length: this.threads }, () => {
        const worker = new Worker(WORKER_SOURCE, { eval: true });
        // The pool never keeps the process alive on its own; close() ends the threads.
        worker.unref();
        const entry: PoolWorker = { worker, kernels: new Map(), pending: new Map() };
        worker.on(
          'message',
          (m: { id: number; ok: boolean; shards?: number; from?: number; to?: number; error?: string }) => {
            const pending = entry.pending.get(m.id);
            if (!pending) return;
            entry.pending.delete(m.id);
            if (m.ok) pending.resolve({ shards: m.shards ?? 0, from: m.from ?? 0, to: m.to ?? 0 });
            else pending.reject(new Error(`palm search worker: ${m.error ?? 'failed'}`));
          },
        );
        const failAll = (error: Error) => {
          for (const pending of entry.pending.values()) pending.reject(error);
          entry.pending.clear();
          if (!this.#closed) this.#fail(error);
        };
        worker.on('error', failAll);
        worker.on('exit', (code) => failAll(new Error(`palm search worker exited with code ${code}`)));
        worker.postMessage({ bytes, next: this.#next.buffer });
        return entry;
      });
      return this.#workers;
    } catch (error) {
      this.#fail(error instanceof Error ? error : new Error(String(error)));
      return undefined;
    }
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    const workers = this.#workers ?? [];
    this.#workers = undefined;
    for (const { worker } of workers) void worker.terminate();
  }

  #scan(
    w: PoolWorker,
    kernel: CoarseScanKernel,
    alignments: number,
    first: number,
    size: number,
    keeps: number[],
  ): Promise<Done> {
    let kernelId = this.#kernelIds.get(kernel);
    if (kernelId === undefined) {
      kernelId = this.#nextKernel++;
      this.#kernelIds.set(kernel, kernelId);
    }
    const fresh = w.kernels.get(kernelId) !== kernel.generation;
    w.kernels.set(kernelId, kernel.generation);
    const id = this.#nextMessage++;
    const { layout } = kernel;
    return new Promise<Done>((resolve, reject) => {
      w.pending.set(id, { resolve, reject });
      w.worker.postMessage({
        id,
        kernel: kernelId,
        ...(fresh ? { memory: kernel.memory } : {}),
        heads: layout.heads,
        tails: layout.tails,
        headBytes: layout.headBytes,
        tailBytes: layout.tailBytes,
        leadBytes: layout.leadBytes,
        slices: layout.slices,
        probe: layout.probes[1],
        table: layout.tables[1],
        scores: layout.scores[1],
        histograms: layout.histograms[1],
        histogramBytes: layout.histogramBytes,
        scratchOffset: layout.scratchOffset,
        pairs: layout.pairs[1],
        counts: layout.counts[1],
        block: CASCADE_BLOCK_ENTRIES,
        alignments,
        first,
        size,
        keeps,
      });
    });
  }
}
