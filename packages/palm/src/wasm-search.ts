/**
 * Stage 1 of the 1:N search in WebAssembly SIMD (src/wasm/coarse-scan.wat), with the same scores as the JS
 * `scanCoarse`. The coarse prefixes live apart from the full templates, in a shared WebAssembly memory, as
 * 128 bytes per entry in bit planes (see the .wat): the scan streams 128 bytes per entry instead of striding
 * over 256-byte templates, and workers (parallel-search.ts, Node only) scan shards of the same memory.
 * No Node API here: the module runs wherever WebAssembly SIMD and shared memory do.
 */
import type { ProbeTemplates } from './protect';
import { PalmGallery, searchCandidates, type GalleryShape, type SearchResult } from './search';
import { COARSE_SCAN_WASM_BASE64 } from './wasm/coarse-scan.wasm';

/** The part of the WebAssembly JS API used here (the compiler's libs here have no DOM). */
interface WasmMemory {
  readonly buffer: SharedArrayBuffer;
}
interface WasmApi {
  Memory: new (descriptor: { initial: number; maximum: number; shared: boolean }) => WasmMemory;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}
type ScanFunction = (
  entries: number,
  probe: number,
  alignments: number,
  out: number,
  from: number,
  to: number,
) => void;

const wasm = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;

/** Bytes of one coarse template in the kernel's layout (512 two-bit symbols). */
export const COARSE_ENTRY_BYTES = 128;
/** Words of the coarse template the kernel handles. */
export const KERNEL_COARSE_WORDS = 32;
const PAGE = 65536;
/** One probe's coarse alignments; two probe areas: the main thread's and the workers'. */
const PROBE_BYTES = PAGE;
export const MAX_KERNEL_ALIGNMENTS = PROBE_BYTES / COARSE_ENTRY_BYTES;
const MAX_PAGES = 65536;

function decodeBase64(text: string): Uint8Array {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const values = new Uint8Array(128);
  for (let i = 0; i < alphabet.length; i++) values[alphabet.charCodeAt(i)] = i;
  const clean = text.replace(/=+$/, '');
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let bits = 0;
  let acc = 0;
  let o = 0;
  for (let i = 0; i < clean.length; i++) {
    acc = (acc << 6) | values[clean.charCodeAt(i)]!;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >>> bits) & 0xff;
    }
  }
  return out;
}

let compiled: object | undefined;

/** The kernel module's bytes. */
export function coarseScanBytes(): Uint8Array {
  return decodeBase64(COARSE_SCAN_WASM_BASE64);
}

/** The compiled kernel module (compiled once; it may be posted to workers). */
export function coarseScanModule(): object {
  if (!wasm) throw new Error('WebAssembly is not available');
  compiled ??= new wasm.Module(decodeBase64(COARSE_SCAN_WASM_BASE64));
  return compiled;
}

/** Whether the kernel can scan galleries of this shape (2-bit symbols, 512 coarse symbols). */
export function kernelSupports(shape: Pick<GalleryShape, 'symbolBits' | 'coarseHashes'>): boolean {
  return (
    wasm !== undefined &&
    shape.symbolBits === 2 &&
    Math.ceil((shape.coarseHashes * shape.symbolBits) / 32) === KERNEL_COARSE_WORDS
  );
}

/**
 * Writes 32 template words in the kernel's layout: four chunks of a low-bit plane P and a high-bit plane Q
 * (4 words each), from word pairs (w0, w1): P = lo bits of w0 at even, of w1 at odd positions; Q = hi bits.
 */
export function toBitPlanes(
  words: Uint32Array,
  offset: number,
  out: Uint32Array | Int32Array,
  outOffset: number,
): void {
  for (let c = 0; c < 4; c++) {
    for (let j = 0; j < 4; j++) {
      const w0 = words[offset + 8 * c + 2 * j]!;
      const w1 = words[offset + 8 * c + 2 * j + 1]!;
      out[outOffset + 8 * c + j] = (w0 & 0x55555555) | ((w1 & 0x55555555) << 1);
      out[outOffset + 8 * c + 4 + j] = ((w0 >>> 1) & 0x55555555) | (w1 & 0xaaaaaaaa);
    }
  }
}

/** Byte offsets of the kernel's memory regions, for a scan in this thread or in a worker. */
export interface KernelLayout {
  entries: number;
  /** Probe areas: [main thread, workers]. */
  probes: [number, number];
  /** Score areas (u16 per entry): [main thread, workers]. */
  scores: [number, number];
}

/**
 * The coarse prefixes of a gallery's entries in a shared WebAssembly memory, slot for slot as in the
 * gallery, and the kernel over them. Growth past the capacity makes a new memory (`generation` counts them).
 */
export class CoarseScanKernel {
  memory: WasmMemory;
  capacity: number;
  generation = 0;
  layout: KernelLayout;
  private scanFn: ScanFunction;
  private words: Int32Array;

  constructor(capacity: number) {
    this.capacity = Math.max(16, capacity);
    ({
      memory: this.memory,
      layout: this.layout,
      scan: this.scanFn,
    } = CoarseScanKernel.create(this.capacity));
    this.words = new Int32Array(this.memory.buffer);
  }

  private static create(capacity: number) {
    if (!wasm) throw new Error('WebAssembly is not available');
    const scoreBytes = Math.ceil((capacity * 2) / COARSE_ENTRY_BYTES) * COARSE_ENTRY_BYTES;
    const layout: KernelLayout = {
      probes: [0, PROBE_BYTES],
      scores: [2 * PROBE_BYTES, 2 * PROBE_BYTES + scoreBytes],
      entries: 2 * PROBE_BYTES + 2 * scoreBytes,
    };
    const pages = Math.ceil((layout.entries + capacity * COARSE_ENTRY_BYTES) / PAGE);
    if (pages > MAX_PAGES) throw new RangeError('gallery too large for the kernel memory');
    const memory = new wasm.Memory({ initial: pages, maximum: pages, shared: true });
    const instance = new wasm.Instance(coarseScanModule(), { env: { memory } });
    return { memory, layout, scan: instance.exports.scan as ScanFunction };
  }

  /** Makes room for `entries` entries, keeping the first `size`. */
  reserve(entries: number, size: number): void {
    if (entries <= this.capacity) return;
    const capacity = Math.max(entries, this.capacity * 2);
    const next = CoarseScanKernel.create(capacity);
    const bytes = new Uint8Array(next.memory.buffer);
    bytes.set(
      new Uint8Array(this.memory.buffer, this.layout.entries, size * COARSE_ENTRY_BYTES),
      next.layout.entries,
    );
    this.memory = next.memory;
    this.layout = next.layout;
    this.scanFn = next.scan;
    this.words = new Int32Array(this.memory.buffer);
    this.capacity = capacity;
    this.generation++;
  }

  /** Stores an entry's coarse prefix (the first 32 of its words) at a slot. */
  set(slot: number, words: Uint32Array, offset = 0): void {
    toBitPlanes(words, offset, this.words, (this.layout.entries + slot * COARSE_ENTRY_BYTES) / 4);
  }

  /** Copies the entry at slot `from` to slot `to`, and clears `from`. */
  move(from: number, to: number): void {
    const w = COARSE_ENTRY_BYTES / 4;
    const base = this.layout.entries / 4;
    this.words.copyWithin(base + to * w, base + from * w, base + (from + 1) * w);
    this.words.fill(0, base + from * w, base + (from + 1) * w);
  }

  clear(slot: number): void {
    const w = COARSE_ENTRY_BYTES / 4;
    const base = this.layout.entries / 4;
    this.words.fill(0, base + slot * w, base + (slot + 1) * w);
  }

  /** Writes the probe's coarse alignments into a probe area (0: this thread, 1: workers); returns their count. */
  writeProbe(area: 0 | 1, probe: ProbeTemplates): number {
    if (probe.coarseAlignments > MAX_KERNEL_ALIGNMENTS) throw new RangeError('too many coarse alignments');
    const base = this.layout.probes[area] / 4;
    for (let a = 0; a < probe.coarseAlignments; a++) {
      toBitPlanes(probe.coarse, a * KERNEL_COARSE_WORDS, this.words, base + (a * COARSE_ENTRY_BYTES) / 4);
    }
    return probe.coarseAlignments;
  }

  /** Runs the kernel here: scores of slots [from, to) against probe area `area` into score area `area`. */
  scan(area: 0 | 1, alignments: number, from: number, to: number): void {
    this.scanFn(
      this.layout.entries,
      this.layout.probes[area],
      alignments,
      this.layout.scores[area],
      from,
      to,
    );
  }

  /** The score area as an array of `size` scores (a view on the shared memory). */
  scores(area: 0 | 1, size: number): Uint16Array {
    return new Uint16Array(this.memory.buffer, this.layout.scores[area], size);
  }
}

/**
 * A PalmGallery whose stage 1 runs in the WebAssembly kernel (same scores, same results). Galleries of a
 * shape the kernel does not handle, and probes with more alignments than its probe area, use the JS scan.
 */
export class WasmPalmGallery extends PalmGallery {
  readonly kernel: CoarseScanKernel | undefined;
  /** Counts changes of the entries, so that a scan that ran elsewhere can tell if it is still current. */
  version = 0;

  constructor(shape: Readonly<GalleryShape>, initialCapacity = 1024) {
    super(shape, initialCapacity);
    this.kernel = kernelSupports(shape) ? new CoarseScanKernel(initialCapacity) : undefined;
  }

  override addWords(id: string, words: Uint32Array): void {
    super.addWords(id, words);
    this.version++;
    if (!this.kernel) return;
    const slot = this.size - 1;
    this.kernel.reserve(this.size, slot);
    this.kernel.set(slot, words);
  }

  override remove(id: string): boolean {
    const slot = this.slotOf(id);
    if (slot === undefined) return false;
    const last = this.size - 1;
    super.remove(id);
    this.version++;
    if (this.kernel) {
      if (slot !== last) this.kernel.move(last, slot);
      else this.kernel.clear(slot);
    }
    return true;
  }

  /** Whether stage 1 of this probe can run in the kernel. */
  kernelScans(probe: ProbeTemplates): boolean {
    return this.kernel !== undefined && probe.coarseAlignments <= MAX_KERNEL_ALIGNMENTS;
  }

  override scanCoarse(probe: ProbeTemplates, out: Uint16Array, from = 0, to = this.size): void {
    this.checkProbe(probe);
    if (!this.kernel || !this.kernelScans(probe)) {
      super.scanCoarse(probe, out, from, to);
      return;
    }
    this.kernel.scan(0, this.kernel.writeProbe(0, probe), from, to);
    out.set(this.kernel.scores(0, to).subarray(from, to), from);
  }

  override search(
    probe: ProbeTemplates,
    options: { candidates?: number; coarseScores?: Uint16Array } = {},
  ): SearchResult {
    if (options.coarseScores || !this.kernel || this.size <= searchCandidates(options.candidates)) {
      return super.search(probe, options);
    }
    this.checkProbe(probe);
    if (!this.kernelScans(probe)) return super.search(probe, options);
    this.kernel.scan(0, this.kernel.writeProbe(0, probe), 0, this.size);
    return super.search(probe, { ...options, coarseScores: this.kernel.scores(0, this.size) });
  }
}
