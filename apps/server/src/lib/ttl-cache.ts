/**
 * A bounded map whose entries answer for a fixed time. For lookups whose answer does not change (a token's
 * session, an address's user) and whose use is re-checked where it matters; cleared whole when full.
 */
export class TtlCache<V> {
  readonly #entries = new Map<string, { value: V; storedAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  get(key: string, now = Date.now()): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (now - entry.storedAt >= this.ttlMs) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V, now = Date.now()): void {
    if (this.#entries.size >= this.maxEntries) this.#entries.clear();
    this.#entries.set(key, { value, storedAt: now });
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }
}
