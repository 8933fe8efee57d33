/**
 * The kiosk's idle timer (issue 22: the person is signed out after 60 s without a touch). Framework-free and
 * driven by the timer functions it is given, so a test runs it on its own clock; the browser's are the
 * default (and a browser test moves them with Playwright's clock).
 */
export const KIOSK_IDLE_MS = 60_000;

export interface Timers {
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

const browserTimers: Timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};

export class IdleWatch {
  readonly #idleMs: number;
  readonly #onIdle: () => void;
  readonly #timers: Timers;
  #handle: unknown = null;

  constructor(onIdle: () => void, idleMs: number = KIOSK_IDLE_MS, timers: Timers = browserTimers) {
    if (!(idleMs > 0)) throw new RangeError('idleMs must be positive');
    this.#onIdle = onIdle;
    this.#idleMs = idleMs;
    this.#timers = timers;
  }

  /** Starts (or restarts) the countdown: called on start and on every touch, key or scroll. */
  touch(): void {
    this.stop();
    this.#handle = this.#timers.setTimeout(() => {
      this.#handle = null;
      this.#onIdle();
    }, this.#idleMs);
  }

  stop(): void {
    if (this.#handle === null) return;
    this.#timers.clearTimeout(this.#handle);
    this.#handle = null;
  }

  get running(): boolean {
    return this.#handle !== null;
  }
}
