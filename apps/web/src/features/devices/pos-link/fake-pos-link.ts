import {
  PosLinkClosedError,
  decodeAmountRequest,
  decodeResult,
  encodeAmountRequest,
  encodeResult,
} from './pos-link';
import type { PosAmountRequest, PosLink, PosResult } from './pos-link';

/**
 * A POS on a table, for tests: `ringUp` is the cashier entering a sale; `results` is what its screen showed.
 * Every message crosses the same byte encoding as over Bluetooth, so the wire format is exercised too.
 */
export class FakePosLink implements PosLink {
  readonly results: PosResult[] = [];
  #queue: Uint8Array<ArrayBuffer>[] = [];
  #waiting: { resolve: (bytes: Uint8Array<ArrayBuffer>) => void; reject: (error: Error) => void } | null =
    null;
  #closed = false;

  /** The cashier rings up a sale: it is notified to the terminal. */
  ringUp(request: PosAmountRequest): void {
    const bytes = encodeAmountRequest(request);
    if (this.#waiting === null) this.#queue.push(bytes);
    else {
      this.#waiting.resolve(bytes);
      this.#waiting = null;
    }
  }

  /** Raw bytes from a misbehaving POS. */
  ringUpRaw(bytes: Uint8Array<ArrayBuffer>): void {
    if (this.#waiting === null) this.#queue.push(bytes);
    else {
      this.#waiting.resolve(bytes);
      this.#waiting = null;
    }
  }

  async nextAmount(signal?: AbortSignal): Promise<PosAmountRequest> {
    if (this.#closed) throw new PosLinkClosedError();
    const queued = this.#queue.shift();
    const bytes =
      queued ??
      (await new Promise<Uint8Array<ArrayBuffer>>((resolve, reject) => {
        this.#waiting = { resolve, reject };
        signal?.addEventListener('abort', () => reject(new PosLinkClosedError()), { once: true });
      }));
    return decodeAmountRequest(new DataView(bytes.buffer));
  }

  async sendResult(result: PosResult): Promise<void> {
    if (this.#closed) throw new PosLinkClosedError();
    const bytes = encodeResult(result);
    this.results.push(decodeResult(new DataView(bytes.buffer)));
    return Promise.resolve();
  }

  close(): void {
    this.#closed = true;
    this.#waiting?.reject(new PosLinkClosedError());
    this.#waiting = null;
  }
}
