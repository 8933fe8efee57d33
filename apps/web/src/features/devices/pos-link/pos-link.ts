import { paiseToRupeesText } from '@hasta/ledger/money';

/**
 * A link to an existing POS terminal (spec §1, §9: "Bluetooth 5.0 for existing POS terminals"): the POS
 * rings up a sale and hands its amount to the paired store terminal (/terminal), which takes the palm
 * payment with its own device key and hands the result back. The POS never sees a palm, a frame, a key or a
 * person's account: amount in, result out.
 *
 * Implementations: `WebBluetoothPosLink` (Web Bluetooth GATT, web-bluetooth-pos-link.ts) and, for tests,
 * `FakePosLink` (fake-pos-link.ts).
 */
export interface PosLink {
  /** Waits for the POS's next sale; rejects with `PosLinkClosedError` once the link closes or `signal` aborts. */
  nextAmount(signal?: AbortSignal): Promise<PosAmountRequest>;
  /** Hands the outcome of request `result.requestId` back to the POS. */
  sendResult(result: PosResult): Promise<void>;
  /** Ends the link (the GATT connection); a pending `nextAmount` rejects. */
  close(): void;
}

/** One sale rung up on the POS: its own reference (echoed in the result) and the amount to take. */
export interface PosAmountRequest {
  /** The POS's reference of the sale, 0 < id < 2^64: echoed back so a late result never answers another sale. */
  requestId: bigint;
  amountPaise: bigint;
}

/** What the terminal hands back: paid, waiting for the payer's code (decision 022), or not paid and why. */
export type PosResult =
  | { requestId: bigint; status: 'paid'; amountPaise: bigint; reference: string }
  | { requestId: bigint; status: 'code_required'; amountPaise: bigint; reference: string }
  | { requestId: bigint; status: 'declined'; amountPaise: bigint; reference: string }
  | { requestId: bigint; status: 'cancelled'; amountPaise: bigint; reference: string };

export type PosResultStatus = PosResult['status'];

export class PosLinkClosedError extends Error {
  constructor() {
    super('The POS link is closed.');
    this.name = 'PosLinkClosedError';
  }
}

/** A message from the POS that does not follow the wire format below: refused, never guessed at. */
export class PosWireError extends Error {
  constructor(reason: string) {
    super(`POS message refused: ${reason}`);
    this.name = 'PosWireError';
  }
}

/**
 * The wire format, version 1 (all integers little-endian; both messages fit one default-MTU notification or
 * write, 20 bytes, so no Bluetooth 5.0 data-length extension is needed):
 *
 *   amount request (POS -> terminal, notified):  u8 version=1 | u64 request id | u64 amount paise   = 17 bytes
 *   result (terminal -> POS, written):           u8 version=1 | u64 request id | u8 status | u64 amount paise
 *                                                | u8 length n | n bytes UTF-8 reference (n <= 64)  = 19 + n
 *
 * status: 1 paid, 2 waiting for the payer's code, 3 declined, 4 cancelled.
 */
export const POS_WIRE_VERSION = 1;
export const AMOUNT_REQUEST_BYTES = 17;
export const MAX_REFERENCE_BYTES = 64;
/** The largest sale a POS may ask for: ₹1 crore, far above any palm payment's limit; a guard, not a rule. */
export const MAX_POS_AMOUNT_PAISE = 1_000_000_000n;

const STATUS_CODES: Readonly<Record<PosResultStatus, number>> = {
  paid: 1,
  code_required: 2,
  declined: 3,
  cancelled: 4,
};

const U64_MAX = 2n ** 64n - 1n;

/** Reads a POS amount request; refuses a wrong length, version, zero id, or an amount out of bounds. */
export function decodeAmountRequest(bytes: DataView): PosAmountRequest {
  if (bytes.byteLength !== AMOUNT_REQUEST_BYTES) throw new PosWireError(`length ${bytes.byteLength}`);
  const version = bytes.getUint8(0);
  if (version !== POS_WIRE_VERSION) throw new PosWireError(`version ${version}`);
  const requestId = bytes.getBigUint64(1, true);
  const amountPaise = bytes.getBigUint64(9, true);
  if (requestId === 0n) throw new PosWireError('request id 0');
  if (amountPaise <= 0n || amountPaise > MAX_POS_AMOUNT_PAISE)
    throw new PosWireError(`amount ${amountPaise} paise`);
  return { requestId, amountPaise };
}

/** The POS side of the same message (the test double and any POS firmware's reference). */
export function encodeAmountRequest(request: PosAmountRequest): Uint8Array<ArrayBuffer> {
  assertU64(request.requestId);
  assertU64(request.amountPaise);
  const bytes = new Uint8Array(AMOUNT_REQUEST_BYTES);
  const view = new DataView(bytes.buffer);
  view.setUint8(0, POS_WIRE_VERSION);
  view.setBigUint64(1, request.requestId, true);
  view.setBigUint64(9, request.amountPaise, true);
  return bytes;
}

/** The result as written to the POS; a reference longer than 64 UTF-8 bytes is cut at a character boundary. */
export function encodeResult(result: PosResult): Uint8Array<ArrayBuffer> {
  assertU64(result.requestId);
  assertU64(result.amountPaise);
  const reference = truncateUtf8(result.reference, MAX_REFERENCE_BYTES);
  const bytes = new Uint8Array(19 + reference.byteLength);
  const view = new DataView(bytes.buffer);
  view.setUint8(0, POS_WIRE_VERSION);
  view.setBigUint64(1, result.requestId, true);
  view.setUint8(9, STATUS_CODES[result.status]);
  view.setBigUint64(10, result.amountPaise, true);
  view.setUint8(18, reference.byteLength);
  bytes.set(reference, 19);
  return bytes;
}

/** The POS side of a result (the test double reads what the terminal wrote). */
export function decodeResult(bytes: DataView): PosResult {
  if (bytes.byteLength < 19) throw new PosWireError(`length ${bytes.byteLength}`);
  const version = bytes.getUint8(0);
  if (version !== POS_WIRE_VERSION) throw new PosWireError(`version ${version}`);
  const code = bytes.getUint8(9);
  const status = (Object.keys(STATUS_CODES) as PosResultStatus[]).find((key) => STATUS_CODES[key] === code);
  if (status === undefined) throw new PosWireError(`status ${code}`);
  const length = bytes.getUint8(18);
  if (length > MAX_REFERENCE_BYTES || bytes.byteLength !== 19 + length)
    throw new PosWireError(`reference length ${length}`);
  const reference = new TextDecoder('utf-8', { fatal: true }).decode(
    new Uint8Array(bytes.buffer, bytes.byteOffset + 19, length),
  );
  return {
    requestId: bytes.getBigUint64(1, true),
    status,
    amountPaise: bytes.getBigUint64(10, true),
    reference,
  };
}

/** The amount as the terminal's payment request carries it ("250.00"). */
export const posAmountText = (request: PosAmountRequest): string => paiseToRupeesText(request.amountPaise);

function assertU64(value: bigint): void {
  if (value < 0n || value > U64_MAX) throw new PosWireError(`${value} is not a u64`);
}

function truncateUtf8(text: string, maxBytes: number): Uint8Array {
  const encoder = new TextEncoder();
  let bytes = encoder.encode(text);
  if (bytes.byteLength <= maxBytes) return bytes;
  // Drop whole characters (code points) from the end until it fits.
  const characters = Array.from(text);
  while (characters.length > 0 && bytes.byteLength > maxBytes) {
    characters.pop();
    bytes = encoder.encode(characters.join(''));
  }
  return bytes;
}
