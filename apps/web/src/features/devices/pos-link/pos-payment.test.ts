import { describe, expect, it } from 'vitest';

import { FakePosLink } from './fake-pos-link';
import {
  AMOUNT_REQUEST_BYTES,
  PosWireError,
  decodeAmountRequest,
  decodeResult,
  encodeAmountRequest,
  encodeResult,
} from './pos-link';
import { posSaleKey, servePosLink, takePosSale } from './pos-payment';
import type { TakeTerminalPayment } from './pos-payment';
import { posLinkSupported } from './web-bluetooth-pos-link';

/** A terminal whose palm payments are recorded: what it was asked to take, and with which keys. */
function recordingTerminal(answer: Awaited<ReturnType<TakeTerminalPayment>> | Error) {
  const calls: { amountText: string; idempotencyKey: string }[] = [];
  const pay: TakeTerminalPayment = ({ amountText, idempotencyKey }) => {
    calls.push({ amountText, idempotencyKey });
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
  };
  return { calls, pay };
}

describe('a terminal payment driven by a POS', () => {
  it('takes the amount the POS rang up and hands the payment back to the POS', async () => {
    const pos = new FakePosLink();
    const terminal = recordingTerminal({ status: 'paid', reference: 'tx-42' });
    pos.ringUp({ requestId: 7n, amountPaise: 25_050n });

    const result = await takePosSale(pos, terminal.pay, { linkPrefix: 'link-a' });

    expect(terminal.calls).toEqual([{ amountText: '250.50', idempotencyKey: 'pos:link-a:7' }]);
    expect(result).toEqual({ requestId: 7n, status: 'paid', amountPaise: 25_050n, reference: 'tx-42' });
    expect(pos.results).toEqual([result]);
  });

  it('tells the POS a payment above the limit waits for the payer’s code', async () => {
    const pos = new FakePosLink();
    const terminal = recordingTerminal({ status: 'code_required', reference: 'pending-9' });
    pos.ringUp({ requestId: 8n, amountPaise: 900_000n });
    await takePosSale(pos, terminal.pay, { linkPrefix: 'link-a' });
    expect(pos.results).toEqual([
      { requestId: 8n, status: 'code_required', amountPaise: 900_000n, reference: 'pending-9' },
    ]);
  });

  it('answers a refused payment as declined, with the message, and still throws it for the terminal', async () => {
    const pos = new FakePosLink();
    const terminal = recordingTerminal(new Error('Hand not recognized.'));
    pos.ringUp({ requestId: 9n, amountPaise: 100n });
    await expect(takePosSale(pos, terminal.pay, { linkPrefix: 'link-a' })).rejects.toThrow(
      'Hand not recognized.',
    );
    expect(pos.results).toEqual([
      { requestId: 9n, status: 'declined', amountPaise: 100n, reference: 'Hand not recognized.' },
    ]);
  });

  it('gives the same sale the same idempotency key, and another sale another', async () => {
    const pos = new FakePosLink();
    const terminal = recordingTerminal({ status: 'paid', reference: 'tx' });
    pos.ringUp({ requestId: 1n, amountPaise: 500n });
    pos.ringUp({ requestId: 1n, amountPaise: 500n });
    pos.ringUp({ requestId: 2n, amountPaise: 500n });
    const sales = await servePosLink(pos, terminal.pay, { linkPrefix: 'p', maxSales: 3 });
    expect(sales).toBe(3);
    expect(terminal.calls.map((call) => call.idempotencyKey)).toEqual(['pos:p:1', 'pos:p:1', 'pos:p:2']);
    expect(posSaleKey('q', { requestId: 1n, amountPaise: 1n })).not.toBe('pos:p:1');
  });

  it('stops serving when the link closes, without waiting for another sale', async () => {
    const pos = new FakePosLink();
    const terminal = recordingTerminal({ status: 'paid', reference: 'tx' });
    const serving = servePosLink(pos, terminal.pay, { linkPrefix: 'p', maxSales: 100 });
    pos.ringUp({ requestId: 3n, amountPaise: 1_000n });
    await expect.poll(() => pos.results.length).toBe(1);
    pos.close();
    await expect(serving).resolves.toBe(1);
  });

  it('refuses a POS message of another length, version, a zero id or a zero amount', () => {
    const good = encodeAmountRequest({ requestId: 5n, amountPaise: 1n });
    expect(good.byteLength).toBe(AMOUNT_REQUEST_BYTES);
    expect(decodeAmountRequest(new DataView(good.buffer))).toEqual({ requestId: 5n, amountPaise: 1n });
    const short = good.slice(0, 16);
    expect(() => decodeAmountRequest(new DataView(short.buffer))).toThrow(PosWireError);
    const otherVersion = good.slice();
    otherVersion[0] = 2;
    expect(() => decodeAmountRequest(new DataView(otherVersion.buffer))).toThrow(PosWireError);
    const zeroId = encodeAmountRequest({ requestId: 0n, amountPaise: 1n });
    expect(() => decodeAmountRequest(new DataView(zeroId.buffer))).toThrow(PosWireError);
    const zeroAmount = encodeAmountRequest({ requestId: 1n, amountPaise: 0n });
    expect(() => decodeAmountRequest(new DataView(zeroAmount.buffer))).toThrow(PosWireError);
  });

  it('writes a result that fits 64 bytes of reference, cut at a character boundary', () => {
    const long = 'भुगतान'.repeat(10);
    const bytes = encodeResult({ requestId: 1n, status: 'paid', amountPaise: 1n, reference: long });
    expect(bytes.byteLength).toBeLessThanOrEqual(19 + 64);
    const read = decodeResult(new DataView(bytes.buffer));
    expect(long.startsWith(read.reference)).toBe(true);
    expect(read.reference.length).toBeGreaterThan(0);
  });

  it('is not offered where the browser has no Web Bluetooth (never run here)', async () => {
    await expect(posLinkSupported({ navigator: {} })).resolves.toBe(false);
    await expect(posLinkSupported(undefined)).resolves.toBe(false);
    await expect(
      posLinkSupported({
        navigator: { bluetooth: { getAvailability: () => Promise.reject(new Error('x')) } },
      }),
    ).resolves.toBe(false);
  });
});
