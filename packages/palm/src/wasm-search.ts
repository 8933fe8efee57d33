/**
 * Stage 1 of the 1:N search in WebAssembly SIMD (src/wasm/coarse-scan.wat): the cascade of search.ts's
 * `cascadeBlock`, with the same distances and survivors as the JS code. The coarse prefixes live apart from
 * the full templates, in a shared WebAssembly memory, in bit planes (see the .wat), as two arrays: the heads
 * (the first half of every prefix; the lead is the head's first half) and the tails; a lead of one chunk (the
 * engine's) is held a third time, bit-sliced across groups of 128 entries (64 bytes per entry), for the pass
 * over every lead. Workers (parallel-search.ts, Node only) run blocks of the same memory.
 * No Node API here: the module runs wherever WebAssembly SIMD and shared memory do.
 */
import type { ProbeTemplates } from './protect';
import {
  CASCADE_BLOCK_ENTRIES,
  cascadeHeadWords,
  cascadeKeeps,
  cascadeLeadWords,
  firstPassAlignments,
  PalmGallery,
  type CascadeKeeps,
  type CoarseSurvivors,
  type GalleryShape,
} from './search';
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
  heads: number,
  tails: number,
  headBytes: number,
  tailBytes: number,
  probe: number,
  alignments: number,
  out: number,
  from: number,
  to: number,
) => void;
type FineFunction = (
  entries: number,
  count: number,
  probe: number,
  alignments: number,
  bytes: number,
  out: number,
) => void;
type CascadeFunction = (
  heads: number,
  tails: number,
  headBytes: number,
  tailBytes: number,
  leadBytes: number,
  slices: number,
  probe: number,
  table: number,
  alignments: number,
  scores: number,
  histogram: number,
  scratch: number,
  out: number,
  from: number,
  to: number,
  keepLead: number,
  keep: number,
  first: number,
) => number;

const wasm = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;

/** Template words in one chunk of the kernel's layout (128 two-bit symbols, 32 bytes). */
const CHUNK_WORDS = 8;
/**
 * The lead pass over a lead of one chunk runs bit-sliced over groups of this many slots (see `leadsSliced` in
 * the .wat): per group, per lead symbol and per symbol value, 16 bytes with a bit per slot.
 */
const SLICE_GROUP = 128;
const SLICE_GROUP_BYTES = SLICE_GROUP * 64;
/** Bytes per probe alignment of the bit-sliced lead pass's table (an i32 offset per lead symbol). */
const SLICE_TABLE_BYTES = 512;
/** Bytes per block the bit-sliced lead pass works in, after the block's histogram. */
const SLICE_SCRATCH_BYTES = 320;
const PAGE = 65536;
/** One probe's coarse alignments; two probe areas: the main thread's and the workers'. */
const PROBE_BYTES = PAGE;
const MAX_PAGES = 65536;
/**
 * Stage 2 in the kernel: the probe's full alignments (at most this many bytes: 2,816 alignments of the
 * engine's 256-byte templates; its plan has 2,673), and templates per call.
 */
const FINE_PROBE_BYTES = 11 * PAGE;
const FINE_BATCH = 512;

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

/** Words of a coarse template of this shape. */
function coarseWordsOf(shape: Pick<GalleryShape, 'symbolBits' | 'coarseHashes'>): number {
  return Math.ceil((shape.coarseHashes * shape.symbolBits) / 32);
}

/**
 * Whether the kernel can scan galleries of this shape: 2-bit symbols, and a coarse template whose lead, head
 * and tail are whole chunks of 128 symbols (the engine's 512 coarse symbols: one, two and two).
 */
export function kernelSupports(shape: Pick<GalleryShape, 'symbolBits' | 'coarseHashes'>): boolean {
  const coarseWords = coarseWordsOf(shape);
  const headWords = cascadeHeadWords(coarseWords);
  return (
    wasm !== undefined &&
    shape.symbolBits === 2 &&
    cascadeLeadWords(coarseWords) % CHUNK_WORDS === 0 &&
    headWords % CHUNK_WORDS === 0 &&
    (coarseWords - headWords) % CHUNK_WORDS === 0 &&
    coarseWords * 4 <= PROBE_BYTES
  );
}

/**
 * Writes `words` template words (a multiple of 8) in the kernel's layout: chunks of a low-bit plane P and a
 * high-bit plane Q (4 words each), from word pairs (w0, w1): P = lo bits of w0 at even, of w1 at odd
 * positions; Q = hi bits.
 */
export function toBitPlanes(
  words: Uint32Array,
  offset: number,
  count: number,
  out: Uint32Array | Int32Array,
  outOffset: number,
): void {
  for (let c = 0; c < count / CHUNK_WORDS; c++) {
    for (let j = 0; j < 4; j++) {
      const w0 = words[offset + 8 * c + 2 * j]!;
      const w1 = words[offset + 8 * c + 2 * j + 1]!;
      out[outOffset + 8 * c + j] = (w0 & 0x55555555) | ((w1 & 0x55555555) << 1);
      out[outOffset + 8 * c + 4 + j] = ((w0 >>> 1) & 0x55555555) | (w1 & 0xaaaaaaaa);
    }
  }
}

/** Byte offsets and sizes of the kernel's memory regions, for a scan in this thread or in a worker. */
export interface KernelLayout {
  heads: number;
  tails: number;
  headBytes: number;
  tailBytes: number;
  /** The lead: the first bytes of each head. */
  leadBytes: number;
  /**
   * The leads again, bit-sliced (`SLICE_GROUP_BYTES` per group of `SLICE_GROUP` slots), if the lead is one
   * chunk, else 0.
   */
  slices: number;
  /** Per area ([main thread, workers]): the probe's alignments. */
  probes: [number, number];
  /** Per area: the probe's table for the bit-sliced lead pass (`SLICE_TABLE_BYTES` per alignment). */
  tables: [number, number];
  /** Per area: a u16 per slot (the lead distances of the cascade's first pass, or the whole of `scan`). */
  scores: [number, number];
  /**
   * Per area: a histogram per block (`histogramBytes` each), followed, from `scratchOffset` on, by the block's
   * scratch for the bit-sliced lead pass.
   */
  histograms: [number, number];
  histogramBytes: number;
  scratchOffset: number;
  /** Per area: survivors as (slot, distance) u32 pairs, a block's from 8 bytes × its first slot on. */
  pairs: [number, number];
  /** Per area: survivors per block (u32), written by the workers. */
  counts: [number, number];
  /** Stage 2 (calling thread only): the probe's full alignments, a batch of templates, their distances. */
  fineProbe: number;
  fineEntries: number;
  fineOut: number;
  fineBytes: number;
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
  readonly coarseWords: number;
  readonly headWords: number;
  readonly leadWords: number;
  /** Most probe alignments the probe area holds. */
  readonly maxAlignments: number;
  private scanFn: ScanFunction;
  private cascadeFn: CascadeFunction;
  private fineFn: FineFunction;
  private words: Int32Array;
  private bytes: Uint8Array;

  /** Words of a full template, if stage 2 can run in the kernel (whole chunks), else 0. */
  readonly fineWords: number;

  constructor(capacity: number, coarseWords: number, words = 0) {
    this.capacity = slotsFor(capacity);
    this.coarseWords = coarseWords;
    this.fineWords = words > 0 && words % CHUNK_WORDS === 0 ? words : 0;
    this.headWords = cascadeHeadWords(coarseWords);
    this.leadWords = cascadeLeadWords(coarseWords);
    this.maxAlignments = Math.floor(PROBE_BYTES / (coarseWords * 4));
    ({
      memory: this.memory,
      layout: this.layout,
      scan: this.scanFn,
      cascade: this.cascadeFn,
      fine: this.fineFn,
    } = CoarseScanKernel.create(
      this.capacity,
      this.headWords * 4,
      (coarseWords - this.headWords) * 4,
      this.leadWords * 4,
      this.fineWords * 4,
      this.maxAlignments,
    ));
    this.words = new Int32Array(this.memory.buffer);
    this.bytes = new Uint8Array(this.memory.buffer);
  }

  private static create(
    capacity: number,
    headBytes: number,
    tailBytes: number,
    leadBytes: number,
    fineBytes: number,
    maxAlignments: number,
  ) {
    if (!wasm) throw new Error('WebAssembly is not available');
    const align = (bytes: number) => Math.ceil(bytes / 64) * 64;
    const blocks = Math.ceil(capacity / CASCADE_BLOCK_ENTRIES);
    const sliced = leadBytes === CHUNK_WORDS * 4;
    const scratchOffset = align((headBytes * 4 + 1) * 4);
    const histogramBytes = scratchOffset + (sliced ? SLICE_SCRATCH_BYTES : 0);
    const tableBytes = sliced ? align(maxAlignments * SLICE_TABLE_BYTES) : 0;
    const area = {
      scores: align(capacity * 2),
      histograms: blocks * histogramBytes,
      pairs: align(capacity * 8),
      counts: align(blocks * 4),
    };
    const areaBytes = area.scores + area.histograms + area.pairs + area.counts;
    const fineRegion = FINE_PROBE_BYTES + align(FINE_BATCH * fineBytes) + FINE_BATCH * 4;
    const base = (k: 0 | 1) => 2 * PROBE_BYTES + fineRegion + 2 * tableBytes + k * areaBytes;
    const at = (offset: number): [number, number] => [base(0) + offset, base(1) + offset];
    const layout: KernelLayout = {
      headBytes,
      tailBytes,
      leadBytes,
      slices: 0,
      probes: [0, PROBE_BYTES],
      tables: [2 * PROBE_BYTES + fineRegion, 2 * PROBE_BYTES + fineRegion + tableBytes],
      scores: at(0),
      histograms: at(area.scores),
      histogramBytes,
      scratchOffset,
      pairs: at(area.scores + area.histograms),
      counts: at(area.scores + area.histograms + area.pairs),
      fineProbe: 2 * PROBE_BYTES,
      fineEntries: 2 * PROBE_BYTES + FINE_PROBE_BYTES,
      fineOut: 2 * PROBE_BYTES + FINE_PROBE_BYTES + align(FINE_BATCH * fineBytes),
      fineBytes,
      heads: base(1) + areaBytes,
      tails: base(1) + areaBytes + capacity * headBytes,
    };
    let end = layout.tails + capacity * tailBytes;
    if (sliced) {
      layout.slices = align(end);
      end = layout.slices + (capacity / SLICE_GROUP) * SLICE_GROUP_BYTES;
    }
    const pages = Math.ceil(end / PAGE);
    if (pages > MAX_PAGES) throw new RangeError('gallery too large for the kernel memory');
    const memory = new wasm.Memory({ initial: pages, maximum: pages, shared: true });
    const instance = new wasm.Instance(coarseScanModule(), { env: { memory } });
    return {
      memory,
      layout,
      scan: instance.exports.scan as ScanFunction,
      cascade: instance.exports.cascade as CascadeFunction,
      fine: instance.exports.fine as FineFunction,
    };
  }

  /** Makes room for `entries` entries, keeping the first `size`. */
  reserve(entries: number, size: number): void {
    if (entries <= this.capacity) return;
    const capacity = slotsFor(Math.max(entries, this.capacity * 2));
    const { headBytes, tailBytes, leadBytes } = this.layout;
    const next = CoarseScanKernel.create(
      capacity,
      headBytes,
      tailBytes,
      leadBytes,
      this.layout.fineBytes,
      this.maxAlignments,
    );
    const bytes = new Uint8Array(next.memory.buffer);
    const old = this.memory.buffer;
    bytes.set(new Uint8Array(old, this.layout.heads, size * headBytes), next.layout.heads);
    bytes.set(new Uint8Array(old, this.layout.tails, size * tailBytes), next.layout.tails);
    if (this.layout.slices) {
      const groups = Math.ceil(size / SLICE_GROUP);
      bytes.set(new Uint8Array(old, this.layout.slices, groups * SLICE_GROUP_BYTES), next.layout.slices);
    }
    this.memory = next.memory;
    this.layout = next.layout;
    this.scanFn = next.scan;
    this.cascadeFn = next.cascade;
    this.fineFn = next.fine;
    this.words = new Int32Array(this.memory.buffer);
    this.bytes = new Uint8Array(this.memory.buffer);
    this.capacity = capacity;
    this.generation++;
  }

  /**
   * Stores an entry's coarse prefix (the first `coarseWords` of its words) at a slot past the gallery's size
   * (whose bit-sliced lead is clear: `move` and `clear` clear the slots they free).
   */
  set(slot: number, words: Uint32Array, offset = 0): void {
    const { heads, tails, headBytes, tailBytes } = this.layout;
    toBitPlanes(words, offset, this.headWords, this.words, (heads + slot * headBytes) / 4);
    toBitPlanes(
      words,
      offset + this.headWords,
      this.coarseWords - this.headWords,
      this.words,
      (tails + slot * tailBytes) / 4,
    );
    this.sliceHead(slot);
  }

  /** The byte of the slot's group in slice 0 that holds its bit, and the bit. */
  private sliceBit(slot: number): [number, number] {
    const group = this.layout.slices + Math.floor(slot / SLICE_GROUP) * SLICE_GROUP_BYTES;
    return [group + ((slot % SLICE_GROUP) >> 3), 1 << (slot & 7)];
  }

  /**
   * Sets the slot's bits in the bit-sliced leads from its head, its bits being clear: the lead's symbol j of
   * value v sets bit (slot % 128) of slice (j, v) of its group.
   */
  private sliceHead(slot: number): void {
    if (!this.layout.slices) return;
    const [at, bit] = this.sliceBit(slot);
    const lead = (this.layout.heads + slot * this.layout.headBytes) / 4;
    for (let j = 0; j < 128; j++) this.bytes[at + j * 64 + leadSymbol(this.words, lead, j) * 16]! |= bit;
  }

  /** Clears the slot's bits in the bit-sliced leads. */
  private unslice(slot: number): void {
    if (!this.layout.slices) return;
    const [first, bit] = this.sliceBit(slot);
    for (let at = first; at < first + SLICE_GROUP_BYTES; at += 16) this.bytes[at]! &= ~bit;
  }

  /** Copies the entry at slot `from` to slot `to`, and clears `from`. */
  move(from: number, to: number): void {
    for (const [region, bytes] of this.regions()) {
      const w = bytes / 4;
      const base = region / 4;
      this.words.copyWithin(base + to * w, base + from * w, base + (from + 1) * w);
      this.words.fill(0, base + from * w, base + (from + 1) * w);
    }
    this.unslice(from);
    this.unslice(to);
    this.sliceHead(to);
  }

  clear(slot: number): void {
    for (const [region, bytes] of this.regions()) {
      const w = bytes / 4;
      this.words.fill(0, region / 4 + slot * w, region / 4 + (slot + 1) * w);
    }
    this.unslice(slot);
  }

  private regions(): [number, number][] {
    const { heads, tails, headBytes, tailBytes } = this.layout;
    return [
      [heads, headBytes],
      [tails, tailBytes],
    ];
  }

  /**
   * Writes the probe's coarse alignments into a probe area (0: this thread, 1: workers), and their table for
   * the bit-sliced lead pass; returns their count.
   */
  writeProbe(area: 0 | 1, probe: ProbeTemplates): number {
    if (probe.coarseAlignments > this.maxAlignments) throw new RangeError('too many coarse alignments');
    const base = this.layout.probes[area] / 4;
    const table = this.layout.tables[area] / 4;
    for (let a = 0; a < probe.coarseAlignments; a++) {
      const at = base + a * this.coarseWords;
      toBitPlanes(probe.coarse, a * this.coarseWords, this.coarseWords, this.words, at);
      if (!this.layout.slices) continue;
      // Symbol j's slice of the alignment's symbol value at j.
      for (let j = 0; j < 128; j++)
        this.words[table + a * 128 + j] = j * 64 + leadSymbol(this.words, at, j) * 16;
    }
    return probe.coarseAlignments;
  }

  /** Whole coarse distances of slots [from, to) against probe area `area`, into its score area. */
  scan(area: 0 | 1, alignments: number, from: number, to: number): void {
    const { heads, tails, headBytes, tailBytes, probes, scores } = this.layout;
    this.scanFn(heads, tails, headBytes, tailBytes, probes[area], alignments, scores[area], from, to);
  }

  /** The score area as an array of `size` scores (a view on the shared memory). */
  scores(area: 0 | 1, size: number): Uint16Array {
    return new Uint16Array(this.memory.buffer, this.layout.scores[area], size);
  }

  /**
   * Runs the cascade's block `block` of a gallery of `size` entries here, the first passes under the probe's
   * first `first` alignments (all if 0); returns its survivors.
   */
  cascadeBlock(
    area: 0 | 1,
    alignments: number,
    block: number,
    size: number,
    keeps: Readonly<CascadeKeeps>,
    first = alignments,
  ): number {
    const layout = this.layout;
    const from = block * CASCADE_BLOCK_ENTRIES;
    const to = Math.min(size, from + CASCADE_BLOCK_ENTRIES);
    const histogram = layout.histograms[area] + block * layout.histogramBytes;
    // The arguments in the order of the kernel's `cascade` (see the .wat).
    return this.cascadeFn(
      layout.heads,
      layout.tails,
      layout.headBytes,
      layout.tailBytes,
      layout.leadBytes,
      layout.slices,
      layout.probes[area],
      layout.tables[area],
      alignments,
      layout.scores[area],
      histogram,
      histogram + layout.scratchOffset,
      layout.pairs[area] + from * 8,
      from,
      to,
      keeps.lead,
      keeps.head,
      first,
    );
  }

  /** Collects the survivors of every block (their counts given) into `out`, in slot order. */
  collect(area: 0 | 1, size: number, counts: ArrayLike<number>, out: CoarseSurvivors): CoarseSurvivors {
    const pairs = new Uint32Array(this.memory.buffer, this.layout.pairs[area], size * 2);
    let n = 0;
    for (let b = 0; b * CASCADE_BLOCK_ENTRIES < size; b++) {
      const first = b * CASCADE_BLOCK_ENTRIES;
      const count = counts[b]!;
      if (!(count >= 0 && count <= Math.min(size - first, CASCADE_BLOCK_ENTRIES))) {
        throw new RangeError('stage 1 block count out of range');
      }
      for (let k = 0; k < count; k++) {
        out.slots[n] = pairs[2 * (first + k)]!;
        out.distances[n] = pairs[2 * (first + k) + 1]!;
        n++;
      }
    }
    out.count = n;
    return out;
  }

  /** Whether stage 2 of this probe can run here (templates of whole chunks, alignments that fit). */
  fineScans(probe: ProbeTemplates): boolean {
    return this.fineWords > 0 && probe.fineAlignments * this.fineWords * 4 <= FINE_PROBE_BYTES;
  }

  /**
   * Stage 2 on the calling thread: the differing symbols of each slot's full template (from `storage`, as
   * laid out in PalmGallery) against the probe's best full alignment, as the JS code counts them.
   */
  stage2(storage: Uint32Array, probe: ProbeTemplates, slots: readonly number[]): Uint32Array {
    const words = this.fineWords;
    const { fineProbe, fineEntries, fineOut } = this.layout;
    for (let a = 0; a < probe.fineAlignments; a++) {
      toBitPlanes(probe.fine, a * words, words, this.words, fineProbe / 4 + a * words);
    }
    const counts = new Uint32Array(slots.length);
    const out = new Uint32Array(this.memory.buffer, fineOut, FINE_BATCH);
    for (let first = 0; first < slots.length; first += FINE_BATCH) {
      const n = Math.min(FINE_BATCH, slots.length - first);
      for (let k = 0; k < n; k++) {
        toBitPlanes(storage, slots[first + k]! * words, words, this.words, fineEntries / 4 + k * words);
      }
      this.fineFn(fineEntries, n, fineProbe, probe.fineAlignments, words * 4, fineOut);
      counts.set(out.subarray(0, n), first);
    }
    return counts;
  }

  /** The workers' per-block survivor counts (a view on the shared memory). */
  counts(area: 0 | 1, size: number): Int32Array {
    return new Int32Array(this.memory.buffer, this.layout.counts[area], blocksOf(size));
  }
}

/**
 * Symbol j (P bit + 2 × Q bit) of a lead of one chunk in bit planes from word `at`: P in its first four words,
 * Q in the next four.
 */
function leadSymbol(words: Int32Array, at: number, j: number): number {
  const word = j >> 5;
  const bit = j & 31;
  return ((words[at + word]! >>> bit) & 1) | (((words[at + 4 + word]! >>> bit) & 1) << 1);
}

/** Slots the kernel memory holds for a capacity: whole groups of the bit-sliced leads, at least 16. */
function slotsFor(capacity: number): number {
  return Math.ceil(Math.max(16, capacity) / SLICE_GROUP) * SLICE_GROUP;
}

/** Blocks of the cascade over `size` entries. */
export function blocksOf(size: number): number {
  return Math.ceil(size / CASCADE_BLOCK_ENTRIES);
}

/** Entries block `block` of a gallery of `size` keeps: `cascadeKeeps` of its length. */
export function blockKeeps(block: number, size: number, candidates: number): CascadeKeeps {
  const from = block * CASCADE_BLOCK_ENTRIES;
  return cascadeKeeps(Math.min(size, from + CASCADE_BLOCK_ENTRIES) - from, candidates, size);
}

/**
 * A PalmGallery whose stage 1 runs in the WebAssembly kernel (same distances and survivors, same results). Galleries of a
 * shape the kernel does not handle, and probes with more alignments than its probe area, use the JS scan.
 */
export class WasmPalmGallery extends PalmGallery {
  readonly kernel: CoarseScanKernel | undefined;
  /** Counts changes of the entries, so that a scan that ran elsewhere can tell if it is still current. */
  version = 0;

  constructor(shape: Readonly<GalleryShape>, initialCapacity = 1024) {
    super(shape, initialCapacity);
    this.kernel = kernelSupports(shape)
      ? new CoarseScanKernel(initialCapacity, coarseWordsOf(shape), this.words)
      : undefined;
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
    return this.kernel !== undefined && probe.coarseAlignments <= this.kernel.maxAlignments;
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

  protected override stage2(probe: ProbeTemplates, slots: readonly number[]): ArrayLike<number> {
    if (!this.kernel?.fineScans(probe)) return super.stage2(probe, slots);
    return this.kernel.stage2(this.wordsView(), probe, slots);
  }

  override stage1(probe: ProbeTemplates, candidates: number): CoarseSurvivors {
    if (!this.kernel || !this.kernelScans(probe)) return super.stage1(probe, candidates);
    this.checkProbe(probe);
    const size = this.size;
    const alignments = this.kernel.writeProbe(0, probe);
    const first = firstPassAlignments(probe);
    const counts = Array.from({ length: blocksOf(size) }, (_, b) =>
      this.kernel!.cascadeBlock(0, alignments, b, size, blockKeeps(b, size, candidates), first),
    );
    return this.kernel.collect(0, size, counts, this.stage1Buffers(size));
  }
}
