/**
 * A bounded map whose entries answer for a limited time. For lookups whose answer does not change (a token's
 * session, an address's user) and whose use is re-checked where it matters; cleared whole when full.
 *
 * Each entry answers for a time drawn between `(1 − jitter) × ttlMs` and `ttlMs`, never longer. Entries
 * stored together (every caller's session in the minute after a start, or a burst of traffic) would
 * otherwise all expire together and send every request of the next seconds to the database at once: in the
 * ledger benchmark at 500 transfers/s, the sessions and receivers cached during its warm-up expired in one
 * second and their lookups held the server up for 2–3 seconds (hundreds of requests over 25 ms).
 */
export class TtlCache<V> {
  readonly #entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly options: { jitter?: number; random?: () => number } = {},
  ) {
    const jitter = options.jitter ?? DEFAULT_JITTER;
    if (!(jitter >= 0 && jitter < 1)) throw new RangeError('jitter is a fraction from 0 up to 1');
  }

  get(key: string, now = Date.now()): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (now >= entry.expiresAt) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V, now = Date.now()): void {
    if (this.#entries.size >= this.maxEntries) this.#entries.clear();
    const jitter = this.options.jitter ?? DEFAULT_JITTER;
    const random = this.options.random ?? Math.random;
    this.#entries.set(key, { value, expiresAt: now + this.ttlMs * (1 - jitter * random()) });
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }
}

/** By default an entry answers for between half its time to live and all of it. */
export const DEFAULT_JITTER = 0.5;
