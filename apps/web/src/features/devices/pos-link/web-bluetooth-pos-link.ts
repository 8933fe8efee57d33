import { PosLinkClosedError, decodeAmountRequest, encodeResult } from './pos-link';
import type { PosAmountRequest, PosLink, PosResult } from './pos-link';

/**
 * The Hasta POS GATT service, as a POS partner's firmware exposes it (the POS is the peripheral; the store
 * terminal's browser is the central). 128-bit UUIDs of Hasta's own, fixed here once.
 */
export const HASTA_POS_SERVICE_UUID = 'c03e202a-df58-407a-9e86-82e2ce664690';
/** Amount request (POS -> terminal): read + notify; the 17-byte message of pos-link.ts. */
export const HASTA_POS_AMOUNT_CHARACTERISTIC_UUID = 'b6d93119-5ea2-4d8d-86da-33b7ce7ee4da';
/** Result (terminal -> POS): write with response; the result message of pos-link.ts. */
export const HASTA_POS_RESULT_CHARACTERISTIC_UUID = 'c14d6a61-8855-4224-ae94-af2b6ed1f324';
/**
 * Link (both ways; read + write with response, encrypted link required): the 8-character pairing code the
 * cashier typed on the POS keypad (read by the terminal, which pairs it with the server as a device of the
 * store), then the device id the server answered (written back). Not used by this class; see the design.
 */
export const HASTA_POS_LINK_CHARACTERISTIC_UUID = 'f3f54bae-dcc6-4390-bfb7-6a2892b39624';

/*
 * The few Web Bluetooth types used here (TypeScript's DOM library has none; the API is Chromium's, behind a
 * secure context and a user gesture).
 */
interface GattCharacteristic extends EventTarget {
  readonly value?: DataView;
  startNotifications(): Promise<GattCharacteristic>;
  stopNotifications(): Promise<GattCharacteristic>;
  writeValueWithResponse(value: BufferSource): Promise<void>;
}
interface GattService {
  getCharacteristic(uuid: string): Promise<GattCharacteristic>;
}
interface GattServer {
  readonly connected: boolean;
  connect(): Promise<GattServer>;
  disconnect(): void;
  getPrimaryService(uuid: string): Promise<GattService>;
}
interface BluetoothDeviceLike extends EventTarget {
  readonly name?: string;
  readonly gatt?: GattServer;
}
interface BluetoothLike {
  getAvailability(): Promise<boolean>;
  requestDevice(options: {
    filters: { services: string[] }[];
    optionalServices?: string[];
  }): Promise<BluetoothDeviceLike>;
}

function bluetoothOf(scope: unknown): BluetoothLike | null {
  const candidate = (scope as { navigator?: { bluetooth?: unknown } } | undefined)?.navigator?.bluetooth;
  return candidate !== undefined && candidate !== null ? (candidate as BluetoothLike) : null;
}

/**
 * Whether this browser can link a POS: Web Bluetooth present (Chromium on desktop and Android, secure
 * context) and a radio available. Never throws; false anywhere else (Firefox, Safari, tests).
 */
export async function posLinkSupported(scope: unknown = globalThis): Promise<boolean> {
  const bluetooth = bluetoothOf(scope);
  if (bluetooth === null) return false;
  try {
    return await bluetooth.getAvailability();
  } catch {
    return false;
  }
}

/** At most this many sales wait unread (a POS that floods notifications loses the oldest, never memory). */
const MAX_QUEUED_REQUESTS = 8;

/**
 * A POS link over Web Bluetooth GATT. `connect` must run from a user gesture (the browser's chooser lists
 * only devices advertising the Hasta POS service). Amount requests arrive as notifications; results are
 * written with response, so a POS out of range makes `sendResult` reject rather than lose the answer silently.
 */
export class WebBluetoothPosLink implements PosLink {
  readonly deviceName: string;
  #server: GattServer;
  #amount: GattCharacteristic;
  #result: GattCharacteristic;
  #queue: PosAmountRequest[] = [];
  #waiting: { resolve: (request: PosAmountRequest) => void; reject: (error: Error) => void } | null = null;
  #closed = false;

  private constructor(
    device: BluetoothDeviceLike,
    server: GattServer,
    amount: GattCharacteristic,
    result: GattCharacteristic,
  ) {
    this.deviceName = device.name ?? '';
    this.#server = server;
    this.#amount = amount;
    this.#result = result;
    amount.addEventListener('characteristicvaluechanged', this.#onAmount);
    device.addEventListener('gattserverdisconnected', () => this.#shut());
  }

  /** Opens the chooser, connects, and subscribes to the POS's amount requests. */
  static async connect(scope: unknown = globalThis): Promise<WebBluetoothPosLink> {
    const bluetooth = bluetoothOf(scope);
    if (bluetooth === null) throw new Error('Web Bluetooth is not available in this browser.');
    const device = await bluetooth.requestDevice({ filters: [{ services: [HASTA_POS_SERVICE_UUID] }] });
    if (device.gatt === undefined) throw new Error('The chosen device has no GATT server.');
    const server = await device.gatt.connect();
    const service = await server.getPrimaryService(HASTA_POS_SERVICE_UUID);
    const [amount, result] = await Promise.all([
      service.getCharacteristic(HASTA_POS_AMOUNT_CHARACTERISTIC_UUID),
      service.getCharacteristic(HASTA_POS_RESULT_CHARACTERISTIC_UUID),
    ]);
    const link = new WebBluetoothPosLink(device, server, amount, result);
    await amount.startNotifications();
    return link;
  }

  #onAmount = (event: Event): void => {
    const value = (event.target as GattCharacteristic | null)?.value;
    if (value === undefined) return;
    let request: PosAmountRequest;
    try {
      request = decodeAmountRequest(value);
    } catch {
      // A malformed message is dropped: the POS gets no result for it and shows its own timeout.
      return;
    }
    if (this.#waiting !== null) {
      this.#waiting.resolve(request);
      this.#waiting = null;
      return;
    }
    if (this.#queue.length >= MAX_QUEUED_REQUESTS) this.#queue.shift();
    this.#queue.push(request);
  };

  nextAmount(signal?: AbortSignal): Promise<PosAmountRequest> {
    if (this.#closed) return Promise.reject(new PosLinkClosedError());
    const queued = this.#queue.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
      signal?.addEventListener(
        'abort',
        () => {
          this.#waiting = null;
          reject(new PosLinkClosedError());
        },
        { once: true },
      );
    });
  }

  async sendResult(result: PosResult): Promise<void> {
    if (this.#closed || !this.#server.connected) throw new PosLinkClosedError();
    await this.#result.writeValueWithResponse(encodeResult(result));
  }

  close(): void {
    if (this.#closed) return;
    this.#amount.removeEventListener('characteristicvaluechanged', this.#onAmount);
    this.#amount.stopNotifications().catch(() => undefined);
    this.#server.disconnect();
    this.#shut();
  }

  #shut(): void {
    this.#closed = true;
    this.#waiting?.reject(new PosLinkClosedError());
    this.#waiting = null;
    this.#queue = [];
  }
}
