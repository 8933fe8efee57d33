/**
 * 1:N identification over protected templates, and the decision on top of it.
 *
 * A linear scan: at ~25–35 % genuine symbol disagreement no index (multi-index hashing, trees) prunes
 * anything, and a scan over contiguous words is as fast as memory allows. Two stages:
 * 1. every gallery entry's coarse template against the probe's few coarse alignments, as a cascade
 *    (`cascadeBlock`) in galleries of more than `CASCADE_MIN_GALLERY` entries: per block of
 *    `CASCADE_BLOCK_ENTRIES` slots, the lead of every entry (the first quarter of its coarse template)
 *    first; the head (the first half) only for the best 1/`CASCADE_LEAD_KEEP_DIVISOR` of the block's leads;
 *    the whole coarse template only for the best 1/`CASCADE_KEEP_DIVISOR` of the block's entries by those
 *    heads; of those, the best `candidates` entries (by the smallest distance over the alignments) go on;
 * 2. their full templates against all of the probe's full alignments (more rotations and shifts).
 *
 * Distances are the fraction of disagreeing Index-of-Max symbols, minimised over the probe's alignments.
 */
import { popcount32, type Alignment } from './features';
import {
  MAX_SHIFT_CELLS,
  type GridAlignment,
  type ProbeHasher,
  type ProbeTemplates,
  type ProtectedTemplate,
} from './protect';

/** Masks keeping one bit per symbol after OR-folding the XOR of two words (1-, 2- and 4-bit symbols). */
function laneMask(symbolBits: number): number {
  if (symbolBits === 1) return 0xffffffff;
  if (symbolBits === 2) return 0x55555555;
  if (symbolBits === 4) return 0x11111111;
  throw new RangeError('symbol width must be 1, 2 or 4 bits');
}

/**
 * Differing 2-bit symbols between two runs of `words` words. XOR, then fold each symbol to its low bit; the
 * folded words are summed three at a time in 2-bit fields (at most 3) and widened once per group, which
 * saves most of a full popcount per word.
 */
function mismatches2(
  a: Uint32Array,
  aOffset: number,
  b: Uint32Array,
  bOffset: number,
  words: number,
): number {
  let bytes = 0;
  let k = 0;
  for (; k + 3 <= words; k += 3) {
    let x = a[aOffset + k]! ^ b[bOffset + k]!;
    let s = (x | (x >>> 1)) & 0x55555555;
    x = a[aOffset + k + 1]! ^ b[bOffset + k + 1]!;
    s += (x | (x >>> 1)) & 0x55555555;
    x = a[aOffset + k + 2]! ^ b[bOffset + k + 2]!;
    s += (x | (x >>> 1)) & 0x55555555;
    s = (s & 0x33333333) + ((s >>> 2) & 0x33333333);
    // Byte fields hold at most 12 per group; 21 groups would fit, and templates are far shorter.
    bytes += (s + (s >>> 4)) & 0x0f0f0f0f;
  }
  let count = 0;
  for (; k < words; k++) {
    const x = a[aOffset + k]! ^ b[bOffset + k]!;
    count += popcount32((x | (x >>> 1)) & 0x55555555);
  }
  return (
    count +
    ((Math.imul(bytes & 0x00ff00ff, 0x00010001) >>> 16) +
      (Math.imul((bytes >>> 8) & 0x00ff00ff, 0x00010001) >>> 16))
  );
}

/** Number of differing symbols between two templates of `words` words. */
export function symbolMismatches(
  a: Uint32Array,
  aOffset: number,
  b: Uint32Array,
  bOffset: number,
  words: number,
  symbolBits: number,
): number {
  if (symbolBits === 2) {
    if (words > 63) {
      // Byte fields could overflow past 21 groups: split long runs.
      let count = 0;
      for (let k = 0; k < words; k += 63) {
        count += mismatches2(a, aOffset + k, b, bOffset + k, Math.min(63, words - k));
      }
      return count;
    }
    return mismatches2(a, aOffset, b, bOffset, words);
  }
  const lanes = laneMask(symbolBits);
  let count = 0;
  for (let k = 0; k < words; k++) {
    let x = a[aOffset + k]! ^ b[bOffset + k]!;
    if (symbolBits === 4) {
      x |= x >>> 1;
      x |= x >>> 2;
    }
    count += popcount32(x & lanes);
  }
  return count;
}

/**
 * Smallest mismatch count of the first `length` words of a stored template against the same words of any of
 * a probe's alignments (`stride` words apart).
 */
function bestPrefixOverAlignments(
  stored: Uint32Array,
  storedOffset: number,
  probe: Uint32Array,
  alignments: number,
  stride: number,
  length: number,
  symbolBits: number,
): number {
  let best = 0xffff;
  for (let a = 0; a < alignments; a++) {
    const d = symbolMismatches(stored, storedOffset, probe, a * stride, length, symbolBits);
    if (d < best) best = d;
  }
  return best;
}

/** Smallest mismatch count of one stored template against any of a probe's alignments. */
function bestOverAlignments(
  stored: Uint32Array,
  storedOffset: number,
  probe: Uint32Array,
  alignments: number,
  words: number,
  symbolBits: number,
): number {
  let best = Infinity;
  for (let a = 0; a < alignments; a++) {
    const d = symbolMismatches(stored, storedOffset, probe, a * words, words, symbolBits);
    if (d < best) best = d;
  }
  return best;
}

interface Shape {
  /** Template version (protect.ts); absent in hand-made shapes of tests, where it is not compared. */
  version?: number;
  keyId: Uint8Array;
  symbolBits: number;
  hashes: number;
  coarseHashes: number;
}

function checkShape(a: Shape, b: Shape): void {
  if (a.keyId.length !== b.keyId.length || a.keyId.some((byte, i) => byte !== b.keyId[i])) {
    throw new RangeError('templates were protected with different keys');
  }
  if (a.symbolBits !== b.symbolBits || a.hashes !== b.hashes || a.coarseHashes !== b.coarseHashes) {
    throw new RangeError('templates have different shapes');
  }
  if (a.version !== undefined && b.version !== undefined && a.version !== b.version) {
    throw new RangeError('templates of different versions');
  }
}

function checkProbe(probe: ProbeTemplates, words: number, coarseWords: number): void {
  const first = probe.firstPassAlignments ?? probe.coarseAlignments;
  if (
    probe.fine.length !== probe.fineAlignments * words ||
    probe.coarse.length !== probe.coarseAlignments * coarseWords ||
    probe.fineAlignments < 1 ||
    probe.coarseAlignments < 1 ||
    !(first >= 1 && first <= probe.coarseAlignments)
  ) {
    throw new RangeError('probe shape mismatch');
  }
}

/** The coarse alignments of the cascade's first passes: the probe's first so many (all, unless it says). */
export function firstPassAlignments(probe: ProbeTemplates): number {
  return probe.firstPassAlignments ?? probe.coarseAlignments;
}

/** 1:1 verification distance (0..1): the template against the probe's best full alignment. */
export function verifyDistance(template: ProtectedTemplate, probe: ProbeTemplates): number {
  checkShape(template, probe);
  const words = template.words.length;
  return (
    bestOverAlignments(template.words, 0, probe.fine, probe.fineAlignments, words, template.symbolBits) /
    template.hashes
  );
}

/** The first stage's 1:1 distance (0..1): the coarse prefix against the probe's coarse alignments. */
export function coarseDistance(template: ProtectedTemplate, probe: ProbeTemplates): number {
  checkShape(template, probe);
  const words = probe.coarse.length / probe.coarseAlignments;
  return (
    bestOverAlignments(template.words, 0, probe.coarse, probe.coarseAlignments, words, template.symbolBits) /
    template.coarseHashes
  );
}

export interface Match {
  id: string;
  /** Fraction of disagreeing symbols, 0..1 (smaller is closer). */
  distance: number;
}

export interface SearchResult {
  best: Match | undefined;
  /** The closest entry with a different id than the best. */
  second: Match | undefined;
  gallerySize: number;
  /** Entries that reached the second stage. */
  candidates: number;
}

export interface GalleryShape {
  version?: number;
  keyId: Uint8Array;
  symbolBits: number;
  hashes: number;
  coarseHashes: number;
}

export function galleryShapeOf(template: Shape): GalleryShape {
  return {
    ...(template.version !== undefined ? { version: template.version } : {}),
    keyId: template.keyId,
    symbolBits: template.symbolBits,
    hashes: template.hashes,
    coarseHashes: template.coarseHashes,
  };
}

export const DEFAULT_SEARCH_CANDIDATES = 64;

/** The number of entries `PalmGallery.search` shortlists for a requested count. */
export function searchCandidates(requested: number | undefined): number {
  return Math.max(2, Math.min(requested ?? DEFAULT_SEARCH_CANDIDATES, 10_000));
}
/**
 * The shortlist the server asks stage 1 for in a gallery of `size` entries: about one per thousand entries,
 * a power of two from DEFAULT_SEARCH_CANDIDATES up to 1,024 (at N = 10^6). A mate is lost in stage 1 only
 * when that many entries beat its coarse distance (issue 26: the coarse prefix's genuine tail is wide under
 * a phone camera's pose); stage 2 coarse to fine (refineResult) keeps the longer shortlist cheap.
 */
export function shortlistFor(size: number): number {
  const wanted = 2 ** Math.ceil(Math.log2(Math.max(1, size) / 1000));
  return Math.min(1024, Math.max(DEFAULT_SEARCH_CANDIDATES, wanted));
}

/** Entries beyond this are refused: 2^24 templates of 256 bytes is 4 GB, past what one process should hold. */
export const MAX_GALLERY_SIZE = 1 << 24;

/**
 * Stage 1's cascade runs block by block over the slots (the last block may be shorter), so that its result
 * does not depend on how the blocks are shared out between threads.
 */
export const CASCADE_BLOCK_ENTRIES = 16_384;
/**
 * Each block keeps 1/32 of its entries (and at least the shortlist's size): the best heads among those its
 * leads kept. Measured by `npm run bench:palm` on the medium setting, with every head compared: a mate's
 * head (256 symbols) is beaten by ≥ 1/32 of the impostors for 0.17 % of mated probes, nearly all of which
 * the whole coarse prefix at N = 10^6 misses too: the heads add 0.02 percentage points to the shortlist's
 * miss rate (1/16: none measured, 1/64: 0.07; a head of 128 symbols kept at 1/32 adds 1.5). Those figures
 * predate the camera model: `docs/palm-benchmark.md` at 30bf7a2 has the cascade's first passes adding 3.33
 * points at the medium level (model A), and decision 046 measured wider keeps (1/24, 1/16) saving at most
 * three mates of 200 on one tuning seed and none on another.
 */
export const CASCADE_KEEP_DIVISOR = 32;
/**
 * Each block first keeps the best 1/8 of its leads (the first 128 symbols; and at least what the heads keep)
 * and compares the heads of those only: a lead is half a head's popcounts, so the pass over every entry
 * costs about half as much. Measured by `npm run bench:palm` on the medium setting, the cascade then adds
 * 0.12 percentage points to the shortlist's miss rate at N = 10^6 for single captures and none for fused
 * scans (the server's), against 0.04 keeping 1/4 and 0.02 with the heads alone; 1/16 would add 0.59. Keeping
 * 1/8 rather than 1/4 takes about 5 ms off stage 1 on one thread at 10^6 (decision 016). Measured again by
 * bench/palm-stage1.ts (model A, medium, fused, seeds 7 and 11, the plan's extra coarse alignments): 1/16
 * lost 1.75 and 1.25 points more of the mates for about 8 % less CPU per search. Keeping 1/4 lost the same
 * mates as 1/8 on the tuning set through the camera model (seed 31, medium; decision 046).
 */
export const CASCADE_LEAD_KEEP_DIVISOR = 8;

/** Words of the coarse template's head, which the cascade's second pass compares: the first half. */
export function cascadeHeadWords(coarseWords: number): number {
  return Math.max(1, Math.floor(coarseWords / 2));
}

/** Words of the coarse template's lead, which the cascade's first pass compares: the first quarter. */
export function cascadeLeadWords(coarseWords: number): number {
  return Math.max(1, Math.floor(coarseWords / 4));
}

/**
 * Galleries of at most this many entries (one block) keep every entry in stage 1: no cascade. A block keeps
 * at least the shortlist's size, so in a small gallery the heads alone would choose the shortlist (64 of
 * 1,000 entries): the benchmark's one-capture rank-1 at 1,000 identities went from 100.00 % to 99.96 % with
 * the cascade. The whole coarse template of every entry of a full block takes the kernel 1.0 ms on one
 * thread, the cascade 0.5 ms.
 */
export const CASCADE_MIN_GALLERY = CASCADE_BLOCK_ENTRIES;

/** Entries a block keeps by their leads (`lead`), and of those by their heads (`head`). */
export interface CascadeKeeps {
  lead: number;
  head: number;
}

/**
 * What a block of `length` entries of a gallery of `size` keeps: all of them in a gallery of at most
 * `CASCADE_MIN_GALLERY` entries; else the best 1/`CASCADE_LEAD_KEEP_DIVISOR` of its leads, and of those the
 * best 1/`CASCADE_KEEP_DIVISOR` of the block by their heads, each at least `candidates`.
 */
export function cascadeKeeps(length: number, candidates: number, size: number): CascadeKeeps {
  if (size <= CASCADE_MIN_GALLERY) return { lead: length, head: length };
  return {
    lead: Math.max(Math.ceil(length / CASCADE_LEAD_KEEP_DIVISOR), candidates),
    head: Math.max(Math.ceil(length / CASCADE_KEEP_DIVISOR), candidates),
  };
}

/**
 * The smallest distance with at least `wanted` (≥ 1) of the histogram's counts at or below it, and the room
 * at it: `wanted` less the counts below it.
 */
function histogramCut(histogram: Uint32Array, wanted: number): { cut: number; room: number } {
  let cut = 0;
  let below = 0;
  while (below + histogram[cut]! < wanted) below += histogram[cut++]!;
  return { cut, room: wanted - below };
}

/** Stage 1's result: slots in ascending order with their whole coarse distances (symbols), `count` of them. */
export interface CoarseSurvivors {
  slots: Uint32Array;
  distances: Uint16Array;
  count: number;
}

/** Where a block's cascade reads: the first `leadWords` and `headWords` of each coarse template. */
export interface CascadeShape {
  words: number;
  coarseWords: number;
  headWords: number;
  leadWords: number;
  symbolBits: number;
}

/**
 * One block [from, to) of stage 1, over a words array laid out as in PalmGallery (entries of `words` words,
 * the first `coarseWords` of each the coarse template, of which the first `headWords` the head and the first
 * `leadWords` the lead), distances over the probe's coarse alignments:
 * 1. every lead's distance into `leadScores[slot]`; the cut, the smallest lead distance with at least
 *    lead' = min(max(keeps.lead, keeps.head), to − from) leads at or below it; the lead' entries with the
 *    smallest leads (those below the cut, and the first in slot order at it);
 * 2. their heads' distances; the cut, the smallest head distance with at least keep' = min(keeps.head, lead')
 *    of those heads at or below it; the keep' entries with the smallest heads (below that cut, and the first
 *    in slot order at it);
 * 3. those, in slot order, each with its whole coarse distance, into `outSlots` / `outDistances` from
 *    `outOffset` (which the second step uses for its own list too).
 * Returns their number (keep'); a block that keeps all its entries skips the leads and heads. `histogram`
 * needs a bin per head distance (headWords × 32 / symbolBits + 1). The WebAssembly kernel's `cascade`
 * computes the same.
 */
export function cascadeBlock(
  storage: Uint32Array,
  shape: Readonly<CascadeShape>,
  probe: ProbeTemplates,
  from: number,
  to: number,
  keeps: Readonly<CascadeKeeps>,
  leadScores: Uint16Array,
  histogram: Uint32Array,
  outSlots: Uint32Array,
  outDistances: Uint16Array,
  outOffset: number,
): number {
  const keep = keeps.head;
  if (from >= to || keep <= 0) return 0;
  const { words, coarseWords, symbolBits } = shape;
  const first = firstPassAlignments(probe);
  // Leads and heads under the first passes' alignments, whole prefixes under all (ProbeTemplates).
  const prefix = (slot: number, length: number, alignments = first) =>
    bestPrefixOverAlignments(
      storage,
      slot * words,
      probe.coarse,
      alignments,
      coarseWords,
      length,
      symbolBits,
    );
  if (keep >= to - from) {
    // Every entry survives: no leads, no heads.
    for (let i = from; i < to; i++) {
      outSlots[outOffset + i - from] = i;
      outDistances[outOffset + i - from] = prefix(i, coarseWords, probe.coarseAlignments);
    }
    return to - from;
  }
  // 1. The leads of the whole block.
  histogram.fill(0, 0, (shape.leadWords * 32) / symbolBits + 1);
  for (let i = from; i < to; i++) {
    const d = prefix(i, shape.leadWords);
    leadScores[i] = d;
    histogram[d]!++;
  }
  const lead = histogramCut(histogram, Math.min(Math.max(keeps.lead, keep), to - from));
  let n = outOffset;
  for (let i = from; i < to; i++) {
    const d = leadScores[i]!;
    if (d > lead.cut || (d === lead.cut && lead.room-- <= 0)) continue;
    outSlots[n++] = i;
  }
  // 2. The heads of the leads kept, in the output's room.
  histogram.fill(0, 0, (shape.headWords * 32) / symbolBits + 1);
  for (let k = outOffset; k < n; k++) {
    const d = prefix(outSlots[k]!, shape.headWords);
    outDistances[k] = d;
    histogram[d]!++;
  }
  const head = histogramCut(histogram, Math.min(keep, n - outOffset));
  // 3. The whole prefixes of the heads kept, moved to the front (never past the entry being read).
  let m = outOffset;
  for (let k = outOffset; k < n; k++) {
    const d = outDistances[k]!;
    if (d > head.cut || (d === head.cut && head.room-- <= 0)) continue;
    outSlots[m] = outSlots[k]!;
    outDistances[m] = prefix(outSlots[k]!, coarseWords, probe.coarseAlignments);
    m++;
  }
  return m - outOffset;
}

/**
 * The in-memory gallery: every template's words in one contiguous array, so the first stage is one linear
 * pass over the entries' prefixes. Removal moves the last entry into the hole, keeping the array dense.
 */
export class PalmGallery {
  readonly shape: Readonly<GalleryShape>;
  /** Words per template, and the leading words that form the coarse template. */
  readonly words: number;
  readonly coarseWords: number;
  /** Leading words of the coarse template that the cascade's second and first passes compare. */
  readonly headWords: number;
  readonly leadWords: number;
  private ids: string[] = [];
  private readonly slots = new Map<string, number>();
  private storage: Uint32Array;
  private leadScores = new Uint16Array(0);
  private survivors: CoarseSurvivors = { slots: new Uint32Array(0), distances: new Uint16Array(0), count: 0 };
  private histogram: Uint32Array;

  constructor(shape: Readonly<GalleryShape>, initialCapacity = 1024) {
    this.shape = { ...shape, keyId: shape.keyId.slice() };
    this.words = Math.ceil((shape.hashes * shape.symbolBits) / 32);
    this.coarseWords = Math.ceil((shape.coarseHashes * shape.symbolBits) / 32);
    this.headWords = cascadeHeadWords(this.coarseWords);
    this.leadWords = cascadeLeadWords(this.coarseWords);
    this.histogram = new Uint32Array((this.headWords * 32) / shape.symbolBits + 1);
    if (shape.coarseHashes > 65535) throw new RangeError('coarse hash count out of range');
    this.storage = new Uint32Array(Math.max(1, Math.min(initialCapacity, MAX_GALLERY_SIZE)) * this.words);
  }

  get size(): number {
    return this.ids.length;
  }

  has(id: string): boolean {
    return this.slots.has(id);
  }

  /** The entry's position in the dense array (it changes when another entry is removed). */
  slotOf(id: string): number | undefined {
    return this.slots.get(id);
  }

  /** The entry's stored words (a view into the gallery: read it before the gallery changes). */
  wordsOf(id: string): Uint32Array | undefined {
    const slot = this.slots.get(id);
    return slot === undefined ? undefined : this.storage.subarray(slot * this.words, (slot + 1) * this.words);
  }

  /** Throws unless the probe was made under this gallery's key and has its shape. */
  checkProbe(probe: ProbeTemplates): void {
    checkShape(probe, this.shape);
    checkProbe(probe, this.words, this.coarseWords);
  }

  /** Adds a template under an id; an id already present is refused (remove it first to replace it). */
  add(id: string, template: ProtectedTemplate): void {
    checkShape(template, this.shape);
    this.addWords(id, template.words);
  }

  /** Adds an entry from its packed words (already checked to be of this gallery's key and shape). */
  addWords(id: string, words: Uint32Array): void {
    if (words.length !== this.words) throw new RangeError('template shape differs from the gallery');
    if (this.slots.has(id)) throw new RangeError('id already in the gallery');
    if (this.ids.length >= MAX_GALLERY_SIZE) throw new RangeError('gallery is full');
    this.reserve(this.ids.length + 1);
    const slot = this.ids.length;
    this.storage.set(words, slot * this.words);
    this.ids.push(id);
    this.slots.set(id, slot);
  }

  remove(id: string): boolean {
    const slot = this.slots.get(id);
    if (slot === undefined) return false;
    const last = this.ids.length - 1;
    const w = this.words;
    if (slot !== last) {
      const movedId = this.ids[last]!;
      this.storage.copyWithin(slot * w, last * w, (last + 1) * w);
      this.ids[slot] = movedId;
      this.slots.set(movedId, slot);
    }
    this.ids.pop();
    this.slots.delete(id);
    this.storage.fill(0, last * w, (last + 1) * w);
    return true;
  }

  /** All entries' words (a view; for scanning elsewhere, e.g. by workers sharing the buffer). */
  wordsView(): Uint32Array {
    return this.storage.subarray(0, this.ids.length * this.words);
  }

  private reserve(entries: number): void {
    const capacity = this.storage.length / this.words;
    if (entries <= capacity) return;
    const next = Math.min(MAX_GALLERY_SIZE, Math.max(entries, capacity * 2));
    const storage = new Uint32Array(next * this.words);
    storage.set(this.storage);
    this.storage = storage;
  }

  /** Every entry's whole coarse distance (in symbols) over the probe's coarse alignments, into `out`. */
  scanCoarse(probe: ProbeTemplates, out: Uint16Array, from = 0, to = this.ids.length): void {
    this.checkProbe(probe);
    scanCoarse(this.storage, this.words, this.coarseWords, this.shape.symbolBits, probe, out, from, to);
  }

  /** Room for stage 1's result over `size` entries (the buffer `stage1` returns). */
  stage1Buffers(size: number): CoarseSurvivors {
    if (this.survivors.slots.length < size) {
      const length = Math.max(size, 2 * this.survivors.slots.length);
      this.survivors = { slots: new Uint32Array(length), distances: new Uint16Array(length), count: 0 };
    }
    return this.survivors;
  }

  /**
   * Stage 1 (the cascade, block by block; see `cascadeBlock`): the entries whose whole coarse template was
   * compared, with their distances. The result is a buffer the next call overwrites.
   */
  stage1(probe: ProbeTemplates, candidates: number): CoarseSurvivors {
    this.checkProbe(probe);
    const size = this.ids.length;
    const out = this.stage1Buffers(size);
    if (this.leadScores.length < size) this.leadScores = new Uint16Array(this.survivors.slots.length);
    const { words, coarseWords, headWords, leadWords } = this;
    const shape: CascadeShape = {
      words,
      coarseWords,
      headWords,
      leadWords,
      symbolBits: this.shape.symbolBits,
    };
    let count = 0;
    for (let from = 0; from < size; from += CASCADE_BLOCK_ENTRIES) {
      const to = Math.min(size, from + CASCADE_BLOCK_ENTRIES);
      count += cascadeBlock(
        this.storage,
        shape,
        probe,
        from,
        to,
        cascadeKeeps(to - from, candidates, size),
        this.leadScores,
        this.histogram,
        out.slots,
        out.distances,
        count,
      );
    }
    out.count = count;
    return out;
  }

  /**
   * Slots among stage 1's survivors whose coarse distance is among the `count` best (ties at the cut may add
   * up to `count` more, the first in slot order).
   */
  private shortlist(survivors: CoarseSurvivors, count: number): number[] {
    const histogram = new Uint32Array(this.shape.coarseHashes + 2);
    const { slots, distances } = survivors;
    for (let k = 0; k < survivors.count; k++) histogram[distances[k]!]!++;
    let cut = 0;
    let total = 0;
    while (cut < histogram.length - 1 && total + histogram[cut]! < count) total += histogram[cut++]!;
    const limit = count * 2;
    const chosen: number[] = [];
    for (let k = 0; k < survivors.count && chosen.length < limit; k++) {
      if (distances[k]! <= cut) chosen.push(slots[k]!);
    }
    return chosen;
  }

  /** Stage 2: each slot's differing symbols against the probe's best full alignment. */
  protected stage2(probe: ProbeTemplates, slots: readonly number[]): ArrayLike<number> {
    return slots.map((slot) =>
      bestOverAlignments(
        this.storage,
        slot * this.words,
        probe.fine,
        probe.fineAlignments,
        this.words,
        this.shape.symbolBits,
      ),
    );
  }

  /**
   * Identification: the closest entry and the runner-up. Stage 1's `survivors` may be passed in when it ran
   * elsewhere (in workers), so that only the shortlist and stage 2 run here.
   */
  search(
    probe: ProbeTemplates,
    options: { candidates?: number; survivors?: CoarseSurvivors } = {},
  ): SearchResult {
    checkShape(probe, this.shape);
    checkProbe(probe, this.words, this.coarseWords);
    const size = this.ids.length;
    const candidates = searchCandidates(options.candidates);
    let shortlist: number[];
    if (size <= candidates) {
      shortlist = Array.from({ length: size }, (_, i) => i);
    } else {
      const survivors = options.survivors ?? this.stage1(probe, candidates);
      if (survivors.count > 0 && survivors.slots[survivors.count - 1]! >= size) {
        throw new RangeError('stage 1 result does not match the gallery');
      }
      shortlist = this.shortlist(survivors, candidates);
    }
    const counts = this.stage2(probe, shortlist);
    let best: Match | undefined;
    let second: Match | undefined;
    for (const [k, slot] of shortlist.entries()) {
      const distance = counts[k]! / this.shape.hashes;
      // Ids are unique in the gallery, so the runner-up entry is the closest other id.
      const match = { id: this.ids[slot]!, distance };
      if (!best || distance < best.distance) {
        second = best;
        best = match;
      } else if (!second || distance < second.distance) {
        second = match;
      }
    }
    return { best, second, gallerySize: size, candidates: shortlist.length };
  }
}

/**
 * Every entry's whole coarse distance, over a words array laid out as in PalmGallery (entries of `words`
 * words, the first `coarseWords` of each scanned): stage 1 without the cascade, for tests and benchmarks.
 */
export function scanCoarse(
  storage: Uint32Array,
  words: number,
  coarseWords: number,
  symbolBits: number,
  probe: ProbeTemplates,
  out: Uint16Array,
  from: number,
  to: number,
): void {
  const alignments = probe.coarseAlignments;
  const probeWords = probe.coarse;
  if (symbolBits !== 2) {
    for (let i = from; i < to; i++) {
      out[i] = bestOverAlignments(storage, i * words, probeWords, alignments, coarseWords, symbolBits);
    }
    return;
  }
  for (let i = from; i < to; i++) {
    const base = i * words;
    let best = 0xffff;
    for (let a = 0; a < alignments; a++) {
      const count = symbolMismatches(storage, base, probeWords, a * coarseWords, coarseWords, 2);
      if (count < best) best = count;
    }
    out[i] = best;
  }
}

/**
 * The impostor distance distribution's lower tail, modelled as a normal tail: FMR(t) = Φ((t − location) /
 * scale), with location and scale fitted to the measured impostor quantiles between FMR 1e-5 and 1e-1
 * (a straight line on a normal probability plot). Each alignment's distance is a sum of many symbol
 * comparisons, hence close to normal, and the minimum over the probe's alignments shifts the tail rather
 * than changing its shape. The default is fitted by `npm run bench:palm-calibrate` (both palm models, every
 * nuisance level, calibration seeds); `npm run bench:palm` checks its FMR on other seeds.
 */
export interface ImpostorModel {
  location: number;
  scale: number;
}

/**
 * Fitted by `npm run bench:palm-calibrate` to the server's protocol (a fused payment scan against fused
 * registrations) on calibration seeds: 300 palms × 299 per model and level, models A and B, easy, medium and
 * hard. Each tail's normal fit, and one model under all of them over the FMRs the server works at (1e-3 / N,
 * N = 1…10^6): model A at the hard level has the heaviest tail there (0.6632 / 0.0293; model A medium
 * 0.6561 / 0.0260, model B medium 0.6644 / 0.0220), so its fit is the default. Model B's palms are further
 * apart: at this threshold for FMR 1e-3, B's FMR is about 1e-5 (the threshold holds on both, and is set by A).
 */
export const DEFAULT_IMPOSTOR_MODEL: Readonly<ImpostorModel> = { location: 0.6632, scale: 0.0293 };

/** Standard normal CDF (erfc by Numerical Recipes' Chebyshev fit, relative error < 1.2e-7 everywhere). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * x);
  const erfc =
    t *
    Math.exp(
      -x * x -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 +
                            t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return z >= 0 ? 1 - erfc / 2 : erfc / 2;
}

/** Inverse of the standard normal CDF (Acklam's rational approximation, relative error < 1.2e-9). */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError('probability must be in (0, 1)');
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716,
    2.506628277459239,
  ];
  const b = [
    -54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572,
  ];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  if (p < low || p > 1 - low) {
    const q = Math.sqrt(-2 * Math.log(p < low ? p : 1 - p));
    const x =
      (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) /
      ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
    return p < low ? x : -x;
  }
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
    (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
  );
}

export function falseMatchRate(
  distance: number,
  model: Readonly<ImpostorModel> = DEFAULT_IMPOSTOR_MODEL,
): number {
  return normalCdf((distance - model.location) / model.scale);
}

/** The distance at which the model's false-match rate is `fmr`. */
export function thresholdForFmr(
  fmr: number,
  model: Readonly<ImpostorModel> = DEFAULT_IMPOSTOR_MODEL,
): number {
  if (!(fmr > 0 && fmr < 1)) throw new RangeError('FMR must be in (0, 1)');
  return model.location + model.scale * normalQuantile(fmr);
}

export interface DecisionPolicy {
  /** Largest accepted distance. */
  threshold: number;
  /** Smallest accepted gap between the best and the second-best id. */
  margin: number;
  /** Frames whose best candidate must be the same id (and pass threshold and margin). */
  minAgreeingFrames: number;
}

/**
 * A policy for a target false-positive identification rate: a search over N entries is a false positive
 * if any of N impostors passes, so FPIR ≈ N × FMR, and the threshold is set at FMR = FPIR / N.
 */
export function decisionPolicy(options: {
  gallerySize: number;
  targetFpir?: number;
  margin?: number;
  minAgreeingFrames?: number;
  model?: Readonly<ImpostorModel>;
}): DecisionPolicy {
  const n = Math.max(1, options.gallerySize);
  const fpir = options.targetFpir ?? 1e-3;
  return {
    threshold: thresholdForFmr(Math.min(0.5, fpir / n), options.model),
    margin: options.margin ?? 0.02,
    minAgreeingFrames: options.minAgreeingFrames ?? 1,
  };
}

export type Decision =
  | { outcome: 'match'; id: string; distance: number; agreeingFrames: number }
  | {
      outcome: 'no-match';
      reason: 'no-frames' | 'above-threshold' | 'ambiguous' | 'frames-disagree';
    };

/**
 * Accepts an id only if enough frames name it as their best, each under the threshold and clear of the
 * second-best id by the margin, and no frame names another id under the threshold. Otherwise: no match.
 */
export function decide(results: readonly SearchResult[], policy: Readonly<DecisionPolicy>): Decision {
  if (results.length === 0) return { outcome: 'no-match', reason: 'no-frames' };
  const votes = new Map<string, { frames: number; distance: number }>();
  let ambiguous = false;
  const confident = new Set<string>();
  for (const result of results) {
    const best = result.best;
    if (!best || best.distance > policy.threshold) continue;
    confident.add(best.id);
    // No second id (a gallery of one): nothing to be confused with (distances or normalised scores alike).
    const secondDistance = result.second?.distance ?? Infinity;
    if (secondDistance - best.distance < policy.margin) {
      ambiguous = true;
      continue;
    }
    const vote = votes.get(best.id) ?? { frames: 0, distance: Infinity };
    vote.frames++;
    vote.distance = Math.min(vote.distance, best.distance);
    votes.set(best.id, vote);
  }
  if (confident.size > 1) return { outcome: 'no-match', reason: 'frames-disagree' };
  for (const [id, vote] of votes) {
    if (vote.frames >= policy.minAgreeingFrames) {
      return { outcome: 'match', id, distance: vote.distance, agreeingFrames: vote.frames };
    }
  }
  if (ambiguous) return { outcome: 'no-match', reason: 'ambiguous' };
  return { outcome: 'no-match', reason: 'above-threshold' };
}

/**
 * The smallest mismatch count of a stored template over a plan's full grid that a descent finds, and the grid
 * alignment that gives it: the best of the `start` alignments (and of the next `descents` − 1), then, while
 * one of the (up to 80) alignments one step away on rotation, scale and each shift improves on it, the best of
 * those. Never smaller than the whole grid's minimum; equal to it when the descent reaches the grid's best
 * alignment.
 */
export function refineAlignment(
  stored: Uint32Array,
  hasher: ProbeHasher,
  start: readonly Readonly<GridAlignment>[],
  symbolBits: number,
  descents = REFINE_DESCENTS,
): { mismatches: number; alignment: GridAlignment } {
  const words = hasher.words;
  const plan = hasher.plan;
  const rotations = plan.rotations_deg.length;
  const scales = plan.scales?.length ?? 1;
  const m = plan.maxShift_cells;
  const distance = (a: Readonly<GridAlignment>) =>
    symbolMismatches(stored, 0, hasher.at(a), 0, words, symbolBits);
  const ranked = start.map((a) => ({ a, d: distance(a) })).sort((x, y) => x.d - y.d);
  let overall = Infinity;
  let overallAt: GridAlignment = { ...ranked[0]!.a };
  for (const { a, d } of ranked.slice(0, Math.max(1, descents))) {
    let current = a;
    let best = d;
    for (;;) {
      let next: GridAlignment | undefined;
      for (let s = Math.max(0, current.s - 1); s <= Math.min(scales - 1, current.s + 1); s++) {
        for (let r = Math.max(0, current.r - 1); r <= Math.min(rotations - 1, current.r + 1); r++) {
          for (let dy = Math.max(-m, current.dy - 1); dy <= Math.min(m, current.dy + 1); dy++) {
            for (let dx = Math.max(-m, current.dx - 1); dx <= Math.min(m, current.dx + 1); dx++) {
              const e = distance({ r, s, dx, dy });
              if (e < best) {
                best = e;
                next = { r, s, dx, dy };
              }
            }
          }
        }
      }
      if (!next) break;
      current = next;
    }
    if (best < overall) {
      overall = best;
      overallAt = { ...current };
    }
  }
  return { mismatches: overall, alignment: overallAt };
}

/**
 * Stage 2's polish: steps of a pattern search around a grid alignment, below the grid's own steps.
 * `rotation_deg`, `scale` and `shift_cells` are the first round's steps (half the grid's: 2.5°, 0.045 and half
 * a cell), each later round halves them; a round moves to the best of the 8 poses one step away on one axis
 * while that improves, at most `moves` times.
 */
export interface PolishSteps {
  rotation_deg: number;
  scale: number;
  shift_cells: number;
  rounds: number;
  moves: number;
}

/**
 * Model A through the camera model, fused scans, normalised scores (bench/palm-tune.ts, without and with
 * `--polish off`). On decision 040's ±25° / ±4-cell plan (medium, 100 ids × 3 holds, 20,000 impostor pairs,
 * seed 31): genuine −14.46 ± 2.73 → −17.95 ± 3.22, impostor −1.49 ± 1.07 → −2.10 ± 1.24, stage 2's miss at the
 * level's own fitted threshold for 1e-9 7.5 % → 3.5 % (decision 041). Measured first on the earlier ±15° plan
 * (120 ids, seed 7): that miss 10.4 % → 2.5 %, and the hard level's fused EER 10.2 % → 6.6 %. On that plan,
 * comparing the poses on the symbols after the coarse prefix only (half the cost) missed 4.6 %, and 2,048
 * symbols with this polish 3.3 % (no better within the sample's noise, at twice the hashing and storage).
 */
export const DEFAULT_POLISH: Readonly<PolishSteps> = {
  rotation_deg: 2.5,
  scale: 0.045,
  shift_cells: 0.5,
  rounds: 2,
  moves: 3,
};

/**
 * The polish's pattern search on any cost of a pose (polishDistance's mismatches; the benchmark's unprotected
 * codes): from `pose` at cost `cost0`, each round tries the 8 poses one step away on one axis (rotation, scale,
 * x and y shift; the first round's steps are `steps`', each later round's half the last's), skipping those
 * `allowed` refuses, and moves to the best while that lowers the cost, at most `steps.moves` times. The
 * smallest cost found (never more than `cost0`).
 */
export function polishPose(
  pose: Readonly<Alignment>,
  cost0: number,
  cost: (pose: Readonly<Alignment>) => number,
  allowed: (pose: Readonly<Alignment>) => boolean,
  steps: Readonly<PolishSteps> = DEFAULT_POLISH,
): number {
  let best = cost0;
  let at: Readonly<Alignment> = pose;
  for (let round = 0; round < steps.rounds; round++) {
    const f = 0.5 ** round;
    const dr = steps.rotation_deg * f;
    const ds = steps.scale * f;
    const dt = steps.shift_cells * f;
    for (let move = 0; move < steps.moves; move++) {
      const p = at;
      const scale = p.scale ?? 1;
      const around: Alignment[] = [
        { ...p, rotation_deg: p.rotation_deg - dr },
        { ...p, rotation_deg: p.rotation_deg + dr },
        { ...p, scale: scale * (1 - ds) },
        { ...p, scale: scale * (1 + ds) },
        { ...p, dx_cells: p.dx_cells - dt },
        { ...p, dx_cells: p.dx_cells + dt },
        { ...p, dy_cells: p.dy_cells - dt },
        { ...p, dy_cells: p.dy_cells + dt },
      ];
      let next: Alignment | undefined;
      for (const q of around) {
        if (!allowed(q)) continue;
        const e = cost(q);
        if (e < best) {
          best = e;
          next = q;
        }
      }
      if (!next) break;
      at = next;
    }
  }
  return best;
}

/**
 * The smallest mismatch count of a stored template that the polish finds from a grid alignment of the
 * hasher's plan (never more than the grid alignment's own; `fromMismatches`, when known, is that count). The
 * grid's whole-cell shifts, 5° rotations and 9 % scales leave up to half a step of misalignment, which costs a
 * genuine pair more than the hashing noise of the extra poses gains an impostor pair.
 */
export function polishDistance(
  stored: Uint32Array,
  hasher: ProbeHasher,
  from: Readonly<GridAlignment>,
  symbolBits: number,
  steps: Readonly<PolishSteps> = DEFAULT_POLISH,
  fromMismatches?: number,
): number {
  const plan = hasher.plan;
  const words = hasher.words;
  const reach = Math.min(MAX_SHIFT_CELLS, plan.maxShift_cells + 1);
  const pose: Alignment = {
    rotation_deg: plan.rotations_deg[from.r]!,
    scale: plan.scales?.[from.s] ?? 1,
    dx_cells: from.dx,
    dy_cells: from.dy,
  };
  const mismatches = (p: Readonly<Alignment>) =>
    symbolMismatches(stored, 0, hasher.atPose(p), 0, words, symbolBits);
  return polishPose(
    pose,
    fromMismatches ?? mismatches(pose),
    mismatches,
    (q) => Math.abs(q.dx_cells) <= reach && Math.abs(q.dy_cells) <= reach,
    steps,
  );
}

/**
 * Descents refineAlignment makes, from the closest alignments of the coarse grid. Model A (bench/palm-tune.ts,
 * camera model, 200 ids × 3 holds, seed 7), fused EER at the hard level: full grid 9.94 %, 1 descent 15.8 %,
 * 3: 11.3 %, 6: 10.5 % (medium: genuine distances those of the full grid from 1 descent on). The cost is in
 * the poses encoded, not the alignments hashed: 6 descents hash a few hundred of the plan's alignments.
 */
export const REFINE_DESCENTS = 6;

/** How many of a search result's closest ids coarse-to-fine refines (the best and the runner-up). */
export const REFINED_CANDIDATES = 2;

/**
 * Stage 2 coarse to fine: a search result made with a probe of the coarse grid (`hasher.probe(start)`),
 * its best and runner-up ids re-scored over the full grid (refineAlignment from `start`), then polished off
 * the grid (polishDistance; `polish` null: not), and re-ordered. Refining the runner-up as well keeps the
 * margin check honest: its distance is no more overestimated than under the coarse grid alone, and a
 * runner-up that refines below the best becomes the best.
 */
export function refineResult(
  result: SearchResult,
  gallery: PalmGallery,
  hasher: ProbeHasher,
  start: readonly Readonly<GridAlignment>[],
  polish: Readonly<PolishSteps> | null = DEFAULT_POLISH,
): SearchResult {
  const matches = [result.best, result.second].filter((m): m is Match => m !== undefined);
  const refined = matches.map((match) => {
    const stored = gallery.wordsOf(match.id);
    if (!stored) return match;
    const { symbolBits, hashes } = gallery.shape;
    const refined = refineAlignment(stored, hasher, start, symbolBits);
    const d =
      (polish
        ? polishDistance(stored, hasher, refined.alignment, symbolBits, polish, refined.mismatches)
        : refined.mismatches) / hashes;
    return { id: match.id, distance: Math.min(d, match.distance) };
  });
  refined.sort((a, b) => a.distance - b.distance);
  return { ...result, best: refined[0], second: refined[1] };
}
