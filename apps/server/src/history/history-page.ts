import type { HistoryEntry } from '@hasta/contracts/wallet';
import type { Kysely } from 'kysely';
import type { Schema } from '../db/schema';
import { listTransfers, toTransactionRecord } from '../ledger/queries';
import { AppError } from '../lib/app-error';
import { palmHistoryEvents, type PalmHistoryEvent } from './palm-event-repository';

/** An entry with its place in the source it came from (that source's order of writing). */
interface Sourced {
  seq: bigint;
  entry: HistoryEntry;
}

export interface HistoryPage {
  entries: HistoryEntry[];
  /** Where the next (older) page starts ("transfer seq.palm event seq"); null at the end. */
  next: string | null;
}

/**
 * Where each source starts: `before` is "transfer seq.palm event seq" (the `next` of the page before), none
 * for the newest page. A cursor without both places is refused.
 */
export function parseHistoryCursor(before: string | undefined): {
  transfersBefore: bigint | undefined;
  palmEventsBefore: bigint | undefined;
} {
  if (before === undefined) return { transfersBefore: undefined, palmEventsBefore: undefined };
  const [transfersBefore, palmEventsBefore] = before.split('.').map((part) => BigInt(part));
  if (palmEventsBefore === undefined) throw AppError.of('BAD_REQUEST', 'invalidRequest');
  return { transfersBefore, palmEventsBefore };
}

/**
 * Where a source's next page starts: below the last entry taken from it; when none was taken, where this page
 * started it (or above its newest fetched entry, or 0 for a source that is empty).
 */
export function resumePoint(
  takenCount: number,
  fetched: readonly { seq: bigint }[],
  startedBefore: bigint | undefined,
): bigint {
  if (takenCount > 0) return fetched[takenCount - 1]!.seq;
  return startedBefore ?? (fetched.length > 0 ? fetched[0]!.seq + 1n : 0n);
}

/**
 * Two lists, each newest first, merged by time into at most `size` entries, the later first (a transfer first
 * at the same time). Says how many it took from each, so each can resume where it was left.
 */
export function mergeNewestFirst(
  transfers: readonly Sourced[],
  palmEvents: readonly Sourced[],
  size: number,
): { entries: HistoryEntry[]; transfersTaken: number; palmEventsTaken: number } {
  const entries: HistoryEntry[] = [];
  let t = 0;
  let p = 0;
  while (entries.length < size && (t < transfers.length || p < palmEvents.length)) {
    const transferNext =
      p >= palmEvents.length ||
      (t < transfers.length && transfers[t]!.entry.created_at >= palmEvents[p]!.entry.created_at);
    entries.push(transferNext ? transfers[t++]!.entry : palmEvents[p++]!.entry);
  }
  return { entries, transfersTaken: t, palmEventsTaken: p };
}

function palmEventEntry(event: PalmHistoryEvent): HistoryEntry {
  const enrolled = event.type === 'palm.enrolled';
  return {
    type: enrolled ? 'palm_registration' : 'palm_manual_scan',
    created_at: event.created_at.toISOString(),
    sender: null,
    receiver: null,
    amount: null,
    status: enrolled ? 'Completed' : (event.status ?? 'Success'),
    similarity: event.similarity,
    txid: null,
    tx: null,
  };
}

/**
 * One page of a person's dashboard history, newest first: their transfers and their palm events, merged by
 * time. Each source is read in its own order of writing from where the previous page left it, so a page
 * never repeats or skips an entry. A palm payment's payer is masked unless they or an admin read it.
 */
export async function readHistoryPage(
  db: Kysely<Schema>,
  wallet: { userId: string; accountId: string },
  before: string | undefined,
  size: number,
  /** Whether the reader is an admin, who sees palm payers unmasked. */
  revealPayers = false,
): Promise<HistoryPage> {
  const { transfersBefore, palmEventsBefore } = parseHistoryCursor(before);
  const { accountId } = wallet;
  // One more than a page from each source: whatever is left over says there is an older page.
  const [transfers, palmEvents] = await Promise.all([
    listTransfers(db, { accountId, beforeSeq: transfersBefore, limit: size + 1, includeReversed: true }),
    palmHistoryEvents(db, { userId: wallet.userId, beforeSeq: palmEventsBefore, limit: size + 1 }),
  ]);
  const fromTransfers: Sourced[] = transfers.map((view) => {
    const record = toTransactionRecord(view, { accountId, revealPayers });
    const entry: HistoryEntry = {
      type: 'transaction',
      created_at: record.created_at,
      sender: record.from_user_email,
      receiver: record.to_user_email,
      amount: record.amount,
      status: record.status,
      similarity: null,
      txid: record.id,
      // The payment's entry in the verifiable log, as on its receipt (null until it is sequenced).
      tx: record.blockchain_tx,
      // The palm that paid, on the payer's own entry only (toTransactionRecord shows it to the payer alone).
      hand_hash: record.hand_hash,
    };
    return { seq: view.seq, entry };
  });
  const fromPalm: Sourced[] = palmEvents.map((event) => ({ seq: event.seq, entry: palmEventEntry(event) }));
  const { entries, transfersTaken, palmEventsTaken } = mergeNewestFirst(fromTransfers, fromPalm, size);
  if (transfersTaken === fromTransfers.length && palmEventsTaken === fromPalm.length) {
    return { entries, next: null };
  }
  const transfersNext = resumePoint(transfersTaken, fromTransfers, transfersBefore);
  const palmEventsNext = resumePoint(palmEventsTaken, fromPalm, palmEventsBefore);
  return { entries, next: `${transfersNext}.${palmEventsNext}` };
}
