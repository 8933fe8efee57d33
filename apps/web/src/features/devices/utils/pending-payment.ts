/**
 * The terminal's payment that was sent and got no answer yet (issue 22): its amount and Idempotency-Key, kept
 * in this tab's sessionStorage until the server answers, so a reload or a lost network sends it again as the
 * SAME payment (the server answers a used key with the payment it already made). No picture of the palm is
 * kept: after a reload the payer scans again, under the same key.
 */
export interface PendingPayment {
  amountText: string;
  idempotencyKey: string;
  /** ISO time the payment was first sent. */
  sentAt: string;
  /**
   * An answer under this key was lost (the network, a reload): the payment may have been made, so the key is
   * kept even when a later scan under it is refused (a palm not recognised), until an answer says it paid.
   */
  uncertain?: boolean;
}

export const PENDING_PAYMENT_KEY = 'hasta.terminal.pending-payment';

type SessionLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function session(): SessionLike | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

function isPending(value: unknown): value is PendingPayment {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record['amountText'] === 'string' &&
    /^\d+(\.\d{1,2})?$/.test(record['amountText']) &&
    typeof record['idempotencyKey'] === 'string' &&
    record['idempotencyKey'].length > 0 &&
    record['idempotencyKey'].length <= 100 &&
    typeof record['sentAt'] === 'string' &&
    (record['uncertain'] === undefined || typeof record['uncertain'] === 'boolean')
  );
}

export function readPendingPayment(storage: SessionLike | null = session()): PendingPayment | null {
  const raw = storage?.getItem(PENDING_PAYMENT_KEY) ?? null;
  if (raw === null) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return isPending(value) ? value : null;
  } catch {
    return null;
  }
}

export function writePendingPayment(pending: PendingPayment, storage: SessionLike | null = session()): void {
  storage?.setItem(PENDING_PAYMENT_KEY, JSON.stringify(pending));
}

export function clearPendingPayment(storage: SessionLike | null = session()): void {
  storage?.removeItem(PENDING_PAYMENT_KEY);
}

/**
 * The key for a payment of `amountText`: the pending one's if it is this amount (the same payment again),
 * else a new one.
 */
export function paymentKeyFor(
  amountText: string,
  pending: PendingPayment | null,
  newKey: () => string = () => crypto.randomUUID(),
): string {
  return pending !== null && pending.amountText === amountText ? pending.idempotencyKey : newKey();
}

/** The same pending payment, marked as one whose answer was lost. */
export function markUncertain(pending: PendingPayment): PendingPayment {
  return { ...pending, uncertain: true };
}
