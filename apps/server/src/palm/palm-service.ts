import { randomUUID } from 'node:crypto';
import { messages, type MessageKey } from '@hasta/contracts/messages';
import { PALM_ROI_BYTES, PALM_ROI_SIZE, type Hand, type PalmScan } from '@hasta/contracts/palm';
import { extractFeatures, type PalmFeatures } from '@hasta/palm/features';
import { FRAME_AGREEMENT_MAX_DISTANCE, fuseFeatures } from '@hasta/palm/fusion';
import {
  coarseGridOf,
  parseTemplate,
  palmHash,
  serializeTemplate,
  type GridAlignment,
  type ProbeHasher,
  type ProbeTemplates,
  type ProtectedTemplate,
} from '@hasta/palm/protect';
import { palmEvidence } from '@hasta/palm/palm-evidence';
import { frameQuality, type QualityIssue } from '@hasta/palm/quality';
import { PalmSearchPool, type Stage1Path } from '@hasta/palm/parallel-search';
import { ReplayScan } from '@hasta/palm/replay';
import { mirroredFrame } from '@hasta/palm/roi';
import { normalisedDecisionPolicy, normaliseResult, normaliserFor } from '@hasta/palm/score-normalisation';
import { decide, galleryShapeOf, refineResult, shortlistFor, type SearchResult } from '@hasta/palm/search';
import { WasmPalmGallery } from '@hasta/palm/wasm-search';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Schema } from '../db/schema';
import { AppError } from '../lib/app-error';
import { open, seal } from '../tlog/sealing';
import type { PalmKey, PalmKeys } from './palm-keys';
import { RecentScanRepository } from './recent-scan-repository';

/** Whether the template `t` has a live (not withdrawn) consent. */
const liveConsent = sql<boolean>`EXISTS (
  SELECT 1 FROM palm_consents c WHERE c.user_id = t.user_id AND c.hand = t.hand AND c.withdrawn_at IS NULL)`;

/**
 * A scan that names nobody: no enrolled palm with a live consent matched it. Payments count these per
 * receiver (take-palm-payment.ts), so they are told apart by type, not by their message.
 */
export class PalmNotRecognisedError extends AppError {
  constructor() {
    super('BAD_REQUEST', messages.palmNotRecognised);
    this.name = 'PalmNotRecognisedError';
  }
}

/**
 * A registration refused for a reason its answer must not tell (issue 21): the palm is someone else's, or
 * the frames do not show one palm. One status and message for both, so registering is no way to learn
 * whether a palm is enrolled.
 */
export class PalmRegistrationRefusedError extends AppError {
  constructor() {
    super('BAD_REQUEST', messages.palmRegistrationRefused);
    this.name = 'PalmRegistrationRefusedError';
  }
}

/** Work done in an enrolment's own transaction (PalmService.commit). */
export type EnrolmentStep = (trx: Transaction<Schema>) => Promise<void>;

/** A protected template ready to enrol on one hand. */
export interface PalmEnrolment {
  hand: Hand;
  key: PalmKey;
  template: ProtectedTemplate;
}

/** An enrolment request's template with its probe, opened for the owner's approval. */
export interface SealedRequestEnrolment extends PalmEnrolment {
  probe: ProbeTemplates;
}

/** A scan made into a template, with its feature kept (in memory only) for the duplicate search. */
export interface PalmCandidate extends PalmEnrolment {
  palmHash: string;
  readonly feature: PalmFeatures;
}

/** Target false-positive identification rate of one search over the whole gallery (FPIR ≈ N × FMR). */
const TARGET_FPIR = 1e-3;
/**
 * What the server says about a frame that fails the quality gate (packages/palm/src/quality.ts), by its first
 * issue. A flat frame (no palm lines) keeps the message unclear frames always had.
 */
const QUALITY_MESSAGES: Readonly<Record<QualityIssue, MessageKey>> = {
  dark: 'palmScanDark',
  bright: 'palmScanBright',
  blurry: 'palmScanBlurred',
  flat: 'palmScanUnclear',
  // Pose issues need the landmarks, which the server does not get: listed for completeness.
  edge: 'palmScanUnclear',
  small: 'palmScanUnclear',
  tilted: 'palmScanUnclear',
};

export interface PalmMatch {
  userId: string;
  hand: Hand;
  templateId: string;
  /** Share of agreeing template symbols, percent with one decimal: what the history shows. */
  similarity: number;
  distance: number;
  /**
   * The scan's fused feature protected under the CURRENT key (what the replay guard remembers), and the scan
   * as the guard compares it with remembered ones (its frames held privately, for this request only).
   */
  scanTemplate: ProtectedTemplate;
  replayScan: ReplayScan;
}

export interface PalmServiceOptions {
  demoMode: boolean;
  maxPaymentPaise: bigint;
  /** Worker threads for the search's first stage (default: up to 2, one per core). */
  searchThreads?: number;
  /** Galleries from this size on are scanned by the workers (smaller ones on the main thread). */
  parallelSearchFrom?: number;
}

interface Enrolled {
  userId: string;
  hand: Hand;
  key: PalmKey;
}

/** A stored template with a live consent, as the gallery is built from. */
interface LiveTemplateRow {
  id: string;
  user_id: string;
  hand: Hand;
  key_id: string;
  sealed_template: Uint8Array;
}

/**
 * The palm engine inside the server (decision 014). Scans arrive as small grey guide-box images; each is
 * turned into its feature, protected under the template key and dropped: the image and the unprotected
 * feature live only in this request's memory. Templates are sealed at rest; the gallery the 1:N search
 * runs on is an in-memory projection of the database (templates with a live consent), built at start and
 * kept current on every enrolment, withdrawal, restore and erasure this process makes, and (several server
 * processes on one PostgreSQL, issue 25) on those of the others: `refreshUsers` reads a user's palms again
 * when the change feed says they changed. Every change to the gallery goes through one queue, so a read
 * made before a change of this process never lands after it.
 */
export class PalmService {
  readonly #galleries = new Map<string, WasmPalmGallery>();
  readonly #enrolled = new Map<string, Enrolled>();
  /** Template ids by user, for the per-user updates. */
  readonly #byUser = new Map<string, Set<string>>();
  /** The gallery's changes, one after the other (see `#serially`). */
  #changes: Promise<void> = Promise.resolve();
  /** Stage 1 of large searches in worker threads (started at the first such search; see close()). */
  readonly #searchPool: PalmSearchPool;
  /** How many searches ran their first stage each way (none: the gallery fits the shortlist). */
  readonly searchPaths: Record<Stage1Path, number> = { none: 0, js: 0, wasm: 0, workers: 0 };

  constructor(
    private readonly db: Kysely<Schema>,
    private readonly keys: PalmKeys,
    readonly options: PalmServiceOptions,
  ) {
    this.#searchPool = new PalmSearchPool({
      ...(options.searchThreads !== undefined ? { threads: options.searchThreads } : {}),
      ...(options.parallelSearchFrom !== undefined ? { parallelFrom: options.parallelSearchFrom } : {}),
    });
  }

  /** Stops the search workers (the server's onClose). */
  async close(): Promise<void> {
    await this.#searchPool.close();
  }

  /** Templates of palms with a live consent, as one gallery per template key. */
  async init(): Promise<void> {
    await this.reload();
  }

  /**
   * Reads every live template again and makes the gallery match (templates added, removed, or moved to
   * another key's gallery); what did not change stays as it is. For a replica that may have missed changes.
   */
  reload(): Promise<void> {
    return this.#serially(async () => {
      const rows = await this.#liveTemplates();
      this.#match(rows, new Set([...this.#byUser.keys(), ...rows.map((row) => row.user_id)]));
    });
  }

  /** Reads these users' live templates again and makes their part of the gallery match (the change feed). */
  refreshUsers(userIds: readonly string[]): Promise<void> {
    if (userIds.length === 0) return Promise.resolve();
    return this.#serially(async () => {
      this.#match(await this.#liveTemplates(userIds), new Set(userIds));
    });
  }

  /** Whether a template is in the gallery (enrolled, with a live consent). */
  has(templateId: string): boolean {
    return this.#enrolled.has(templateId);
  }

  async #liveTemplates(userIds?: readonly string[]): Promise<LiveTemplateRow[]> {
    let query = this.db
      .selectFrom('palm_templates as t')
      .select(['t.id', 't.user_id', 't.hand', 't.key_id', 't.sealed_template'])
      .where(liveConsent);
    if (userIds) query = query.where('t.user_id', 'in', [...userIds]);
    return query.execute();
  }

  /** Makes the gallery's templates of `userIds` those of `rows` (the live ones read for them). */
  #match(rows: readonly LiveTemplateRow[], userIds: ReadonlySet<string>): void {
    const live = new Map(rows.map((row) => [row.id, row]));
    for (const userId of userIds) {
      for (const templateId of [...(this.#byUser.get(userId) ?? [])]) {
        const row = live.get(templateId);
        if (!row || row.key_id !== this.#enrolled.get(templateId)?.key.keyIdHex) this.#remove(templateId);
      }
    }
    for (const row of rows) {
      if (this.#enrolled.has(row.id)) continue;
      const key = this.#keyById(row.key_id);
      // A template of a key no longer configured cannot be matched: its owner registers again.
      if (!key) continue;
      this.#add(row.id, { userId: row.user_id, hand: row.hand, key }, this.#unseal(key, row));
    }
  }

  /**
   * Runs a change of the gallery after those queued before it. A read of the database and what it changes
   * are one step, so a change this process made after the read is applied after it, not undone by it.
   */
  #serially(change: () => void | Promise<void>): Promise<void> {
    const run = this.#changes.then(change);
    this.#changes = run.catch(() => undefined);
    return run;
  }

  get gallerySize(): number {
    return this.#enrolled.size;
  }

  /**
   * Frames of a scan as grey images, checked for size and by the image-only part of the quality gate (the
   * browser's check is for the person; this one is enforced): exposure, contrast and sharpness, then whether
   * it shows a palm at all (packages/palm/src/palm-evidence.ts: a screen, a pattern or noise does not). A
   * frame that fails refuses the whole scan with what to fix, before anything is searched or stored.
   */
  readFrames(scan: PalmScan): Uint8Array[] {
    if (scan.source === 'demo' && !this.options.demoMode)
      throw AppError.of('BAD_REQUEST', 'palmDemoDisabled');
    const frames = scan.frames.map((text) => {
      const frame = new Uint8Array(Buffer.from(text, 'base64'));
      if (frame.length !== PALM_ROI_BYTES) throw AppError.of('BAD_REQUEST', 'scanFailed');
      return frame;
    });
    for (const frame of frames) {
      const quality = frameQuality(frame, PALM_ROI_SIZE);
      const issue = quality.issues[0];
      if (issue !== undefined) throw AppError.of('BAD_REQUEST', QUALITY_MESSAGES[issue]);
      if (!palmEvidence(frame, PALM_ROI_SIZE).palm) throw AppError.of('BAD_REQUEST', 'palmScanNotPalm');
    }
    return frames;
  }

  /**
   * Registers one hand at once (no step-up, no approval: those are the use cases' in register-palm.ts): the
   * hand must be free, the scan one palm that nobody has enrolled. Tests and tools use it.
   */
  async enrol(userId: string, hand: Hand, scan: PalmScan): Promise<{ palmHash: string; templateId: string }> {
    await this.assertHandFree(userId, hand);
    const candidate = this.makeCandidate(hand, scan);
    const owner = await this.ownerOf(candidate);
    if (owner === userId) throw AppError.of('CONFLICT', 'palmAlreadyEnrolled');
    if (owner !== undefined) throw new PalmRegistrationRefusedError();
    return this.commit(userId, candidate);
  }

  /** Refuses a hand the user has already registered. */
  async assertHandFree(userId: string, hand: Hand): Promise<void> {
    if (await this.#registered(this.db, userId, hand)) throw AppError.of('CONFLICT', 'handAlreadyRegistered');
  }

  /**
   * A scan made into the protected template of one hand, not enrolled yet: its frames must show one palm
   * (held still), fused into one feature (packages/palm/src/fusion.ts). The unprotected feature stays in
   * this object, in this request's memory, for the duplicate search (ownerOf).
   */
  makeCandidate(hand: Hand, scan: PalmScan): PalmCandidate {
    // Templates hold every palm in a right hand's orientation: a left hand cut from the guide box is mirrored
    // here, as the landmark ROI mirrors it in the browser.
    const frames = this.readFrames(scan);
    const oriented = hand === 'left' && scan.roi !== 'landmarks' ? frames.map(mirrorFrame) : frames;
    const feature = fusedFeature(oriented);
    if (!feature) throw new PalmRegistrationRefusedError();
    const key = this.keys.current;
    const template = key.protector.enrol(feature);
    return { hand, key, template, palmHash: palmHash(template), feature };
  }

  /** Whose enrolled palm (with a live consent) the candidate is, if anyone's. */
  async ownerOf(candidate: PalmCandidate): Promise<string | undefined> {
    const found = await this.#identify(candidate.feature, TARGET_FPIR, { coarseToFine: false });
    return found.outcome === 'match' ? this.#enrolled.get(found.templateId)?.userId : undefined;
  }

  /**
   * Enrols a template: consent, the template and the events are one transaction; the log events go to its
   * outbox in the same transaction. The palm joins the gallery at once.
   */
  async commit(
    userId: string,
    enrolment: PalmEnrolment,
    options: {
      /** Runs in the enrolment's transaction after the template is written; throwing undoes it all. */
      within?: EnrolmentStep;
      /** The paired device the palm was scanned on (issue 22), recorded with the template. */
      deviceId?: string | null;
    } = {},
  ): Promise<{ palmHash: string; templateId: string }> {
    const { hand, key, template } = enrolment;
    const templateId = randomUUID();
    const hash = palmHash(template);
    await this.db.transaction().execute(async (trx) => {
      if (await this.#registered(trx, userId, hand)) throw AppError.of('CONFLICT', 'handAlreadyRegistered');
      await trx
        .insertInto('palm_templates')
        .values({
          id: templateId,
          user_id: userId,
          hand,
          key_id: key.keyIdHex,
          sealed_template: this.#seal(key, templateId, template),
          palm_hash: hash,
          device_id: options.deviceId ?? null,
        })
        .execute();
      await trx
        .insertInto('palm_consents')
        .values({ id: randomUUID(), user_id: userId, hand, withdrawn_at: null })
        .execute();
      await recordEvents(trx, userId, [
        { type: 'consent.granted', hand },
        { type: 'palm.enrolled', hand },
      ]);
      await options.within?.(trx);
    });
    await this.#serially(() => this.#add(templateId, { userId, hand, key }, template));
    return { palmHash: hash, templateId };
  }

  /**
   * A candidate sealed for a waiting enrolment request: its template, and its probe (the same palm hashed
   * under every alignment, as protected as the template) so the duplicate search can run again when the
   * owner approves. Never the feature.
   */
  sealForRequest(requestId: string, candidate: PalmCandidate): { keyId: string; sealed: Buffer } {
    const key = candidate.key;
    const template = serializeTemplate(candidate.template);
    const probe = serializeProbe(key.protector.probe(candidate.feature));
    const bytes = Buffer.alloc(4 + template.length + probe.length);
    bytes.writeUInt32LE(template.length, 0);
    bytes.set(template, 4);
    bytes.set(probe, 4 + template.length);
    return { keyId: key.keyIdHex, sealed: seal(key.sealKey, bytes, `palm enrolment request ${requestId}`) };
  }

  /** A waiting request's template and probe, or undefined when its key is no longer configured. */
  openRequest(
    requestId: string,
    hand: Hand,
    stored: { keyId: string; sealed: Uint8Array },
  ): SealedRequestEnrolment | undefined {
    const key = this.#keyById(stored.keyId);
    if (!key) return undefined;
    const opened = open(key.sealKey, stored.sealed, `palm enrolment request ${requestId}`);
    if (!opened) throw new Error(`palm enrolment request ${requestId} does not open under its key`);
    const bytes = new Uint8Array(opened);
    const templateLength = Buffer.from(bytes).readUInt32LE(0);
    return {
      hand,
      key,
      template: parseTemplate(bytes.slice(4, 4 + templateLength)),
      probe: parseProbe(bytes.slice(4 + templateLength)),
    };
  }

  /** Whose enrolled palm (of the probe's key) an opened request's probe is, if anyone's: the search again. */
  async ownerOfRequest(enrolment: SealedRequestEnrolment): Promise<string | undefined> {
    const gallery = this.#galleries.get(enrolment.key.keyIdHex);
    if (!gallery || gallery.size === 0) return undefined;
    const result = await this.#searchPool.search(gallery, enrolment.probe);
    this.searchPaths[result.stage1]++;
    // The decision reads the distances against the probe's cohort (score-normalisation.ts), as a payment's.
    const stats = normaliserFor(enrolment.key.protector).stats(enrolment.probe);
    const decision = decide(
      [normaliseResult(result, stats)],
      normalisedDecisionPolicy({ gallerySize: this.gallerySize, targetFpir: TARGET_FPIR }),
    );
    return decision.outcome === 'match' ? this.#enrolled.get(decision.id)?.userId : undefined;
  }

  /**
   * 1:N identification for a payment: the palm's owner, or a PalmNotRecognisedError.
   * A palm enrolled under the previous key, or as a template of an earlier version, is re-made under the
   * current key from this scan.
   */
  async identify(scan: PalmScan): Promise<PalmMatch> {
    const frames = this.readFrames(scan);
    // Frames from the guide box show an unknown hand as the camera saw it: they are searched as they are and
    // mirrored (a left hand), each search at half the false-positive budget, so the scan's stays within it.
    const orientations = scan.roi === 'landmarks' ? [frames] : [frames, frames.map(mirrorFrame)];
    const matches: { frames: Uint8Array[]; feature: PalmFeatures; templateId: string; distance: number }[] =
      [];
    for (const oriented of orientations) {
      // Frames that do not show one palm are no answer (as at registration, where they are refused).
      const feature = fusedFeature(oriented);
      if (!feature) continue;
      const decision = await this.#identify(feature, TARGET_FPIR / orientations.length);
      if (decision.outcome === 'match') matches.push({ frames: oriented, feature, ...decision });
    }
    // Two palms claiming one scan (one each way round) is no answer.
    const found = matches.every((m) => m.templateId === matches[0]?.templateId) ? matches[0] : undefined;
    // The palm may have been withdrawn or erased while the search ran.
    const enrolled = found ? this.#enrolled.get(found.templateId) : undefined;
    if (!found || !enrolled) throw new PalmNotRecognisedError();
    if (enrolled.key !== this.keys.current) await this.#renew(found.templateId, enrolled, found.feature);
    const replayScan = new ReplayScan(
      this.keys.current.protector,
      found.frames,
      PALM_ROI_SIZE,
      found.feature,
    );
    return {
      userId: enrolled.userId,
      hand: enrolled.hand,
      templateId: found.templateId,
      distance: found.distance,
      similarity: Math.round((1 - found.distance) * 1000) / 10,
      scanTemplate: replayScan.template,
      replayScan,
    };
  }

  /** Records a recognised palm in its owner's history (in the payment's transaction). */
  async recordScan(trx: Transaction<Schema>, match: PalmMatch, transferId: string): Promise<void> {
    await trx
      .insertInto('palm_events')
      .values({
        id: randomUUID(),
        user_id: match.userId,
        type: 'palm.scan',
        hand: match.hand,
        status: 'Success',
        similarity: match.similarity,
        transfer_id: transferId,
        template_id: match.templateId,
      })
      .execute();
  }

  /** Withdraws every live consent of the user: their palms leave the gallery at once. Answers the hands. */
  async withdraw(userId: string): Promise<Hand[]> {
    const withdrawn = await this.db.transaction().execute(async (trx) => {
      const rows = await withdrawConsents(trx, userId);
      await recordEvents(
        trx,
        userId,
        rows.map((row) => ({ type: 'consent.withdrawn', hand: row.hand })),
      );
      return rows.map((row) => row.hand);
    });
    await this.#serially(() => this.#removeUser(userId));
    return withdrawn;
  }

  /** Gives consent again for each registered hand without a live consent; its palms return to the gallery. */
  async restore(userId: string): Promise<boolean> {
    const restored = await this.db.transaction().execute(async (trx) => {
      const rows = await trx
        .selectFrom('palm_templates as t')
        .select(['t.id', 't.hand', 't.key_id', 't.sealed_template'])
        .where('t.user_id', '=', userId)
        .where(sql<boolean>`NOT ${liveConsent}`)
        .execute();
      for (const row of rows) {
        await trx
          .insertInto('palm_consents')
          .values({ id: randomUUID(), user_id: userId, hand: row.hand, withdrawn_at: null })
          .execute();
      }
      await recordEvents(
        trx,
        userId,
        rows.map((row) => ({ type: 'consent.granted', hand: row.hand })),
      );
      return rows;
    });
    await this.#serially(() => {
      for (const row of restored) {
        const key = this.#keyById(row.key_id);
        if (key && !this.#enrolled.has(row.id)) {
          this.#add(row.id, { userId, hand: row.hand, key }, this.#unseal(key, row));
        }
      }
    });
    return restored.length > 0;
  }

  /**
   * Erasure: the templates and the recent scans (the replay guard's) are deleted, any live consent is
   * withdrawn and an erase event is logged for each hand. The caller then destroys the user's data key, so
   * their log records can never be opened again.
   */
  async erase(userId: string): Promise<Hand[]> {
    const erased = await this.db.transaction().execute(async (trx) => {
      const consents = await withdrawConsents(trx, userId);
      const templates = await trx
        .deleteFrom('palm_templates')
        .where('user_id', '=', userId)
        .returning('hand')
        .execute();
      await new RecentScanRepository(trx).deleteAll(userId);
      await recordEvents(trx, userId, [
        ...consents.map((row) => ({ type: 'consent.withdrawn' as const, hand: row.hand })),
        ...templates.map((row) => ({ type: 'palm.erased' as const, hand: row.hand })),
      ]);
      return templates.map((row) => row.hand);
    });
    await this.#serially(() => this.#removeUser(userId));
    return erased;
  }

  /**
   * The best match over every key's gallery. Stage 1 of a large gallery runs in the search workers, so the
   * event loop stays free; the results are those of `PalmGallery.search` on the same gallery.
   */
  async #identify(feature: PalmFeatures, targetFpir: number, options = { coarseToFine: true }) {
    let best: { templateId: string; distance: number; score: number } | undefined;
    const gallerySize = this.gallerySize;
    for (const [keyId, gallery] of [...this.#galleries]) {
      if (gallery.size === 0) continue;
      const key = this.#keyById(keyId)!;
      let result: SearchResult & { stage1: Stage1Path };
      let probe: ProbeTemplates;
      if (options.coarseToFine) {
        const hasher = key.protector.prober(feature);
        const grid = coarseGridOf(hasher.plan);
        probe = hasher.probe(grid);
        result = await this.#searchCoarseToFine(gallery, hasher, grid, probe);
      } else {
        // Every alignment of the full grid, then the best two ids polished between its steps as a payment's
        // are (refineResult keeps the smaller distance), so a duplicate is found at least as readily as a payment
        // would find the palm.
        probe = key.protector.probe(feature);
        const full = await this.#searchPool.search(gallery, probe);
        const hasher = key.protector.prober(feature);
        result = { ...full, ...refineResult(full, gallery, hasher, coarseGridOf(hasher.plan)) };
      }
      this.searchPaths[result.stage1]++;
      // The distances read against the probe's cohort (score-normalisation.ts), so that one threshold holds on
      // palms of any kind; the cohort's statistics come from the probe's coarse grid either way.
      const stats = normaliserFor(key.protector).stats(probe);
      const decision = decide(
        [normaliseResult(result, stats)],
        normalisedDecisionPolicy({ gallerySize, targetFpir }),
      );
      // The best over the keys by normalised score; the distance kept is the plain one (the history's similarity).
      if (decision.outcome === 'match' && (!best || decision.distance < best.score)) {
        best = { templateId: decision.id, distance: result.best!.distance, score: decision.distance };
      }
    }
    return best
      ? { outcome: 'match' as const, templateId: best.templateId, distance: best.distance }
      : { outcome: 'no-match' as const };
  }

  /**
   * A payment's search, stage 2 coarse to fine: the shortlist scored under the coarse grid, its closest ids
   * refined over the full one and polished between its steps (search.ts refineResult), hashing only the
   * alignments and poses the refinement visits.
   * A registration's duplicate check searches the full grid (no time limit there, and every alignment tried),
   * then refines and polishes the same way.
   */
  async #searchCoarseToFine(
    gallery: WasmPalmGallery,
    hasher: ProbeHasher,
    grid: readonly GridAlignment[],
    gridProbe: ProbeTemplates,
  ) {
    const coarse = await this.#searchPool.search(gallery, gridProbe, {
      candidates: shortlistFor(gallery.size),
    });
    return { ...coarse, ...refineResult(coarse, gallery, hasher, grid) };
  }

  /** Re-makes a previous-key template under the current key from a capture that just matched it. */
  async #renew(templateId: string, enrolled: Enrolled, feature: PalmFeatures): Promise<void> {
    const key = this.keys.current;
    const template = key.protector.enrol(feature);
    await this.db
      .updateTable('palm_templates')
      .set({
        key_id: key.keyIdHex,
        sealed_template: this.#seal(key, templateId, template),
        palm_hash: palmHash(template),
      })
      .where('id', '=', templateId)
      .execute();
    await this.#serially(() => {
      // Withdrawn or erased meanwhile (here, or by another process): not put back.
      if (!this.#enrolled.has(templateId)) return;
      this.#remove(templateId);
      this.#add(templateId, { ...enrolled, key }, template);
    });
  }

  async #registered(db: Kysely<Schema>, userId: string, hand: Hand): Promise<boolean> {
    const row = await db
      .selectFrom('palm_templates')
      .select('id')
      .where('user_id', '=', userId)
      .where('hand', '=', hand)
      .executeTakeFirst();
    return row !== undefined;
  }

  #keyById(keyIdHex: string): PalmKey | undefined {
    const { current, previous, legacy = [] } = this.keys;
    if (current.keyIdHex === keyIdHex) return current;
    if (previous?.keyIdHex === keyIdHex) return previous;
    return legacy.find((key) => key.keyIdHex === keyIdHex);
  }

  #seal(key: PalmKey, templateId: string, template: ProtectedTemplate): Buffer {
    return seal(key.sealKey, serializeTemplate(template), `palm template ${templateId}`);
  }

  #unseal(key: PalmKey, row: { id: string; sealed_template: Uint8Array }): ProtectedTemplate {
    const bytes = open(key.sealKey, row.sealed_template, `palm template ${row.id}`);
    if (!bytes) throw new Error(`palm template ${row.id} does not open under its key`);
    return parseTemplate(new Uint8Array(bytes));
  }

  #add(templateId: string, enrolled: Enrolled, template: ProtectedTemplate): void {
    // Already there (this process's own change, read back from the feed): replaced, never twice.
    if (this.#enrolled.has(templateId)) this.#remove(templateId);
    let gallery = this.#galleries.get(enrolled.key.keyIdHex);
    if (!gallery) {
      gallery = new WasmPalmGallery(galleryShapeOf(template));
      this.#galleries.set(enrolled.key.keyIdHex, gallery);
    }
    gallery.add(templateId, template);
    this.#enrolled.set(templateId, enrolled);
    const ofUser = this.#byUser.get(enrolled.userId) ?? new Set<string>();
    ofUser.add(templateId);
    this.#byUser.set(enrolled.userId, ofUser);
  }

  #remove(templateId: string): void {
    const enrolled = this.#enrolled.get(templateId);
    if (!enrolled) return;
    this.#galleries.get(enrolled.key.keyIdHex)?.remove(templateId);
    this.#enrolled.delete(templateId);
    const ofUser = this.#byUser.get(enrolled.userId);
    ofUser?.delete(templateId);
    if (ofUser?.size === 0) this.#byUser.delete(enrolled.userId);
  }

  #removeUser(userId: string): void {
    for (const templateId of [...(this.#byUser.get(userId) ?? [])]) this.#remove(templateId);
  }
}

/** Ends every live consent of the user; returns the hands whose consent ended. */
function withdrawConsents(trx: Transaction<Schema>, userId: string): Promise<{ hand: Hand }[]> {
  return trx
    .updateTable('palm_consents')
    .set({ withdrawn_at: new Date() })
    .where('user_id', '=', userId)
    .where('withdrawn_at', 'is', null)
    .returning('hand')
    .execute();
}

type LoggedPalmEvent = 'consent.granted' | 'consent.withdrawn' | 'palm.enrolled' | 'palm.erased';

/** Events in the person's palm history and, in the same transaction, in the log's outbox. */
async function recordEvents(
  trx: Transaction<Schema>,
  userId: string,
  events: { type: LoggedPalmEvent; hand: Hand }[],
): Promise<void> {
  for (const event of events) {
    const id = randomUUID();
    await trx
      .insertInto('palm_events')
      .values({ id, user_id: userId, type: event.type, hand: event.hand })
      .execute();
    await trx.insertInto('tlog_outbox').values({ type: event.type, ref_id: id, user_id: userId }).execute();
  }
}

/** Which hands each user has registered (admin list, dashboard). */
export async function registeredHands(
  db: Kysely<Schema>,
  userIds: readonly string[],
): Promise<Map<string, { left: boolean; right: boolean }>> {
  const hands = new Map<string, { left: boolean; right: boolean }>();
  if (userIds.length === 0) return hands;
  const rows = await sql<{ user_id: string; hand: Hand }>`
    SELECT user_id, hand FROM palm_templates WHERE user_id = ANY(${[...userIds]}::uuid[])`.execute(db);
  for (const row of rows.rows) {
    const entry = hands.get(row.user_id) ?? { left: false, right: false };
    entry[row.hand] = true;
    hands.set(row.user_id, entry);
  }
  return hands;
}

/** A grey ROI frame mirrored left to right (the cohort's mirror, at the server's ROI size). */
export function mirrorFrame(frame: Uint8Array): Uint8Array {
  return mirroredFrame(frame, PALM_ROI_SIZE);
}

/**
 * The scan's frames fused into one feature (decision 020), or undefined when a frame does not show the same
 * palm as the first: an aligned Competitive Code distance over FRAME_AGREEMENT_MAX_DISTANCE.
 */
function fusedFeature(frames: readonly Uint8Array[]): PalmFeatures | undefined {
  const fused = fuseFeatures(frames.map((frame) => extractFeatures(frame, PALM_ROI_SIZE)));
  return fused.distances.every((d) => d <= FRAME_AGREEMENT_MAX_DISTANCE) ? fused.features : undefined;
}

const PROBE_HEADER_WORDS = 8;

/** A probe as bytes (sealed by the caller): a header of 32-bit words, the key id, then the hashes. */
function serializeProbe(probe: ProbeTemplates): Uint8Array {
  const keyIdWords = Math.ceil(probe.keyId.length / 4);
  const words = new Uint32Array(PROBE_HEADER_WORDS + keyIdWords + probe.fine.length + probe.coarse.length);
  words.set([
    probe.symbolBits,
    probe.hashes,
    probe.coarseHashes,
    probe.fineAlignments,
    probe.coarseAlignments,
    probe.keyId.length,
    probe.fine.length,
    probe.coarse.length,
  ]);
  new Uint8Array(words.buffer).set(probe.keyId, PROBE_HEADER_WORDS * 4);
  words.set(probe.fine, PROBE_HEADER_WORDS + keyIdWords);
  words.set(probe.coarse, PROBE_HEADER_WORDS + keyIdWords + probe.fine.length);
  return new Uint8Array(words.buffer);
}

function parseProbe(bytes: Uint8Array): ProbeTemplates {
  if (bytes.length % 4 !== 0 || bytes.length < PROBE_HEADER_WORDS * 4) throw new Error('bad sealed probe');
  const words = new Uint32Array(bytes.slice().buffer);
  const [
    symbolBits,
    hashes,
    coarseHashes,
    fineAlignments,
    coarseAlignments,
    keyIdBytes,
    fineWords,
    coarseWords,
  ] = words;
  const keyIdWords = Math.ceil(keyIdBytes! / 4);
  const fineAt = PROBE_HEADER_WORDS + keyIdWords;
  if (fineAt + fineWords! + coarseWords! !== words.length) throw new Error('bad sealed probe');
  return {
    symbolBits: symbolBits!,
    hashes: hashes!,
    coarseHashes: coarseHashes!,
    keyId: new Uint8Array(words.buffer, PROBE_HEADER_WORDS * 4, keyIdBytes!).slice(),
    fine: words.slice(fineAt, fineAt + fineWords!),
    fineAlignments: fineAlignments!,
    coarse: words.slice(fineAt + fineWords!, fineAt + fineWords! + coarseWords!),
    coarseAlignments: coarseAlignments!,
  };
}
