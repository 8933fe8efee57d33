import { PosLinkClosedError, posAmountText } from './pos-link';
import type { PosAmountRequest, PosLink, PosResult } from './pos-link';

/**
 * What the terminal's palm payment answered for one POS sale. `reference` is the payment's id (paid), the
 * waiting payment's id (code required, decision 022), or the catalogue message of a refusal (declined).
 */
export type TerminalPaymentOutcome =
  | { status: 'paid'; reference: string }
  | { status: 'code_required'; reference: string }
  | { status: 'declined'; reference: string }
  | { status: 'cancelled'; reference: string };

/**
 * Takes one palm payment at the terminal (the terminal mode's own flow: challenge, scan, signature, request):
 * the amount as rupees text, and an idempotency key that stays the same for every retry of this sale.
 */
export type TakeTerminalPayment = (input: {
  amountText: string;
  idempotencyKey: string;
  signal?: AbortSignal;
}) => Promise<TerminalPaymentOutcome>;

/**
 * The idempotency key of a POS sale: this link's own random prefix (a POS that restarts may count its
 * sales from 1 again) and the sale's id, so the POS asking again for the same sale never pays it twice.
 */
export const posSaleKey = (linkPrefix: string, request: PosAmountRequest): string =>
  `pos:${linkPrefix}:${request.requestId.toString()}`;

/**
 * One POS sale, start to end: the amount from the POS, the terminal's payment, the result back to the POS.
 * A payment that throws is answered to the POS as declined (with the error's message) and the error is
 * thrown again for the terminal to show; the POS is never left waiting without an answer while the link is up.
 */
export async function takePosSale(
  link: PosLink,
  pay: TakeTerminalPayment,
  options: { linkPrefix: string; signal?: AbortSignal },
): Promise<PosResult> {
  const request = await link.nextAmount(options.signal);
  const base = { requestId: request.requestId, amountPaise: request.amountPaise };
  let result: PosResult;
  try {
    const outcome = await pay({
      amountText: posAmountText(request),
      idempotencyKey: posSaleKey(options.linkPrefix, request),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    result = { ...base, ...outcome };
  } catch (error) {
    const reference = error instanceof Error ? error.message : 'Payment failed.';
    await link.sendResult({ ...base, status: 'declined', reference });
    throw error;
  }
  await link.sendResult(result);
  return result;
}

/**
 * Serves the POS until the link closes, `signal` aborts or `maxSales` sales are done (a bound on the loop):
 * each sale's result goes back to the POS; a failed sale is reported through `onSaleFailed` and the next
 * one is awaited.
 */
export async function servePosLink(
  link: PosLink,
  pay: TakeTerminalPayment,
  options: {
    linkPrefix: string;
    maxSales: number;
    signal?: AbortSignal;
    onSale?: (result: PosResult) => void;
    onSaleFailed?: (error: unknown) => void;
  },
): Promise<number> {
  let sales = 0;
  while (sales < options.maxSales && options.signal?.aborted !== true) {
    try {
      const result = await takePosSale(link, pay, options);
      options.onSale?.(result);
    } catch (error) {
      if (error instanceof PosLinkClosedError) break;
      options.onSaleFailed?.(error);
    }
    sales += 1;
  }
  return sales;
}
