import type { HistoryEntry } from '@hasta/contracts/wallet';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeNewestFirst, parseHistoryCursor, resumePoint } from './history-page';

function entry(type: HistoryEntry['type'], createdAt: string): HistoryEntry {
  return {
    type,
    created_at: createdAt,
    sender: null,
    receiver: null,
    amount: null,
    status: 'completed',
    similarity: null,
    txid: null,
    tx: null,
  };
}

describe('the dashboard history page', () => {
  it('merges the later first, a transfer first at the same time', () => {
    const transfers = [
      { seq: 9n, entry: entry('transaction', '2026-01-03T00:00:00.000Z') },
      { seq: 8n, entry: entry('transaction', '2026-01-01T00:00:00.000Z') },
    ];
    const palmEvents = [
      { seq: 4n, entry: entry('palm_manual_scan', '2026-01-03T00:00:00.000Z') },
      { seq: 3n, entry: entry('palm_registration', '2026-01-02T00:00:00.000Z') },
    ];
    const merged = mergeNewestFirst(transfers, palmEvents, 3);
    expect(merged.entries.map((e) => e.type)).toEqual([
      'transaction',
      'palm_manual_scan',
      'palm_registration',
    ]);
    expect(merged).toMatchObject({ transfersTaken: 1, palmEventsTaken: 2 });
  });

  it('resumes a source below its last entry taken, else where it started', () => {
    const fetched = [{ seq: 9n }, { seq: 7n }];
    expect(resumePoint(2, fetched, undefined)).toBe(7n);
    expect(resumePoint(0, fetched, 12n)).toBe(12n);
    // Nothing taken on the newest page: above the newest fetched, so it comes on the next page.
    expect(resumePoint(0, fetched, undefined)).toBe(10n);
    expect(resumePoint(0, [], undefined)).toBe(0n);
  });

  it('reads a cursor with both places and refuses one without', () => {
    expect(parseHistoryCursor(undefined)).toEqual({
      transfersBefore: undefined,
      palmEventsBefore: undefined,
    });
    expect(parseHistoryCursor('12.3')).toEqual({ transfersBefore: 12n, palmEventsBefore: 3n });
    expect(() => parseHistoryCursor('12')).toThrow(expect.objectContaining({ code: 'BAD_REQUEST' }));
  });

  it('pages through two sources without repeating or skipping an entry', () => {
    const times = fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 30 });
    fc.assert(
      fc.property(times, times, fc.integer({ min: 1, max: 7 }), (transferTimes, palmTimes, size) => {
        // Each source is written in time order: a higher seq is never older.
        const source = (type: HistoryEntry['type'], minutes: number[]) =>
          [...minutes]
            .sort((a, b) => a - b)
            .map((minute, index) => ({
              seq: BigInt(index + 1),
              entry: {
                ...entry(type, new Date(minute * 60_000).toISOString()),
                txid: `${type}-${index + 1}`,
              },
            }))
            .reverse();
        const transfers = source('transaction', transferTimes);
        const palmEvents = source('palm_manual_scan', palmTimes);
        const seen: string[] = [];
        let before: { t: bigint | undefined; p: bigint | undefined } = { t: undefined, p: undefined };
        for (let page = 0; page <= transfers.length + palmEvents.length; page += 1) {
          const t = transfers.filter((s) => before.t === undefined || s.seq < before.t).slice(0, size + 1);
          const p = palmEvents.filter((s) => before.p === undefined || s.seq < before.p).slice(0, size + 1);
          const merged = mergeNewestFirst(t, p, size);
          seen.push(...merged.entries.map((e) => e.txid!));
          if (merged.transfersTaken === t.length && merged.palmEventsTaken === p.length) break;
          before = {
            t: resumePoint(merged.transfersTaken, t, before.t),
            p: resumePoint(merged.palmEventsTaken, p, before.p),
          };
        }
        const all = [...transfers, ...palmEvents].map((s) => s.entry.txid!);
        expect([...seen].sort()).toEqual([...all].sort());
      }),
    );
  });
});
