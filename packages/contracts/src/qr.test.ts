import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  PAYMENT_URI_MAX_LENGTH,
  formatPaymentUri,
  parsePaymentUri,
  payeeNameForUri,
  paymentUriSchema,
  type PaymentRequest,
} from './qr';
import { messages } from './messages';

const STORE_ID = '3f2b8c1e-9a4d-4e2f-8b1a-0c9d8e7f6a5b';
const USER_ID = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';
const QR_ID = 'Zk3_9aQ-lm2PqR7sTuVwXy';

const store: PaymentRequest = {
  payee: { kind: 'store', id: STORE_ID },
  payee_name: 'Chai Point, HSR & Co',
  amount_paise: 25_050n,
  qr: QR_ID,
};

describe('payment URI', () => {
  it('writes a readable, versioned URI in a fixed order', () => {
    expect(formatPaymentUri(store)).toBe(
      `hasta://pay?v=1&pa=store-${STORE_ID}&pn=Chai%20Point%2C%20HSR%20%26%20Co&am=250.50&qr=${QR_ID}`,
    );
    expect(formatPaymentUri({ payee: { kind: 'user', id: USER_ID }, payee_name: 'asha' })).toBe(
      `hasta://pay?v=1&pa=user-${USER_ID}&pn=asha`,
    );
    expect(formatPaymentUri({ ...store, amount_paise: 1n })).toContain('&am=0.01&');
    expect(formatPaymentUri({ ...store, amount_paise: 10_000n })).toContain('&am=100.00&');
  });

  it('reads back what it writes', () => {
    expect(parsePaymentUri(formatPaymentUri(store))).toEqual(store);
    const hindi: PaymentRequest = { payee: { kind: 'user', id: USER_ID }, payee_name: 'आशा की दुकान' };
    expect(parsePaymentUri(formatPaymentUri(hindi))).toEqual(hindi);
  });

  it('round-trips any valid request', () => {
    const request = fc.record(
      {
        payee: fc.record({ kind: fc.constantFrom('store' as const, 'user' as const), id: fc.uuid() }),
        payee_name: fc
          .string({ minLength: 1, maxLength: 60, unit: 'grapheme' })
          .map((name) => payeeNameForUri(name))
          .filter((name) => name !== ''),
        amount_paise: fc.bigInt({ min: 1n, max: 99_999_999_999n }),
        qr: fc.stringMatching(/^[A-Za-z0-9_-]{16,64}$/),
      },
      { requiredKeys: ['payee', 'payee_name'] },
    );
    fc.assert(
      fc.property(request, (input) => {
        const valid: PaymentRequest = {
          ...input,
          payee: { ...input.payee, id: input.payee.id.toLowerCase() },
          ...(input.payee.kind === 'user' ? { qr: undefined } : {}),
        };
        if (valid.qr === undefined) delete valid.qr;
        const uri = formatPaymentUri(valid);
        expect(uri.length).toBeLessThanOrEqual(PAYMENT_URI_MAX_LENGTH);
        expect(parsePaymentUri(uri)).toEqual(valid);
      }),
    );
  });

  it('reads what other encoders write: plus as space, bare rupees, upper-case scheme, unknown parameters', () => {
    expect(
      parsePaymentUri(`HASTA://PAY?v=1&pa=STORE-${STORE_ID.toUpperCase()}&pn=Chai+Point&am=250&mode=02&`),
    ).toEqual({ payee: { kind: 'store', id: STORE_ID }, payee_name: 'Chai Point', amount_paise: 25_000n });
    expect(parsePaymentUri(`hasta://pay?pn=x&v=1&am=0.5&pa=user-${USER_ID}`)?.amount_paise).toBe(50n);
  });

  it.each([
    ['another scheme', `upi://pay?v=1&pa=user-${USER_ID}&pn=a`],
    ['another action', `hasta://collect?v=1&pa=user-${USER_ID}&pn=a`],
    ['no version', `hasta://pay?pa=user-${USER_ID}&pn=a`],
    ['an unknown version', `hasta://pay?v=2&pa=user-${USER_ID}&pn=a`],
    ['no payee', 'hasta://pay?v=1&pn=a'],
    ['a payee of another kind', `hasta://pay?v=1&pa=bank-${USER_ID}&pn=a`],
    ['a payee that is not a uuid', 'hasta://pay?v=1&pa=user-123&pn=a'],
    ['no name', `hasta://pay?v=1&pa=user-${USER_ID}`],
    ['a blank name', `hasta://pay?v=1&pa=user-${USER_ID}&pn=%20`],
    ['a name too long', `hasta://pay?v=1&pa=user-${USER_ID}&pn=${'a'.repeat(61)}`],
    ['a negative amount', `hasta://pay?v=1&pa=user-${USER_ID}&pn=a&am=-5.00`],
    ['a zero amount', `hasta://pay?v=1&pa=user-${USER_ID}&pn=a&am=0.00`],
    ['3 decimals', `hasta://pay?v=1&pa=user-${USER_ID}&pn=a&am=1.005`],
    ['an exponent', `hasta://pay?v=1&pa=user-${USER_ID}&pn=a&am=1e3`],
    ['a sign', `hasta://pay?v=1&pa=user-${USER_ID}&pn=a&am=+5`],
    ['a huge amount', `hasta://pay?v=1&pa=user-${USER_ID}&pn=a&am=1234567890`],
    ['an empty amount', `hasta://pay?v=1&pa=user-${USER_ID}&pn=a&am=`],
    ['a repeated parameter', `hasta://pay?v=1&pa=user-${USER_ID}&pa=user-${USER_ID}&pn=a`],
    ['broken percent-encoding', `hasta://pay?v=1&pa=user-${USER_ID}&pn=%E0%A4`],
    ['a fragment', `hasta://pay?v=1&pa=user-${USER_ID}&pn=a#x`],
    ['a short qr id', `hasta://pay?v=1&pa=store-${STORE_ID}&pn=a&qr=abc`],
    ['a qr id on a person', `hasta://pay?v=1&pa=user-${USER_ID}&pn=a&qr=${QR_ID}`],
    ['too long', `hasta://pay?v=1&pa=user-${USER_ID}&pn=a&x=${'y'.repeat(PAYMENT_URI_MAX_LENGTH)}`],
    ['too many parameters', `hasta://pay?v=1&pa=user-${USER_ID}&pn=a${'&x1=1'.repeat(40)}`],
    ['plain text', 'hello'],
    ['empty', ''],
  ])('refuses %s', (_, uri) => {
    expect(parsePaymentUri(uri)).toBeNull();
    const result = paymentUriSchema.safeParse(uri);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(messages.invalidQr);
  });

  it('never throws on any text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (tail) => {
        expect(() => parsePaymentUri(`hasta://pay?${tail}`)).not.toThrow();
        expect(() => parsePaymentUri(tail)).not.toThrow();
      }),
    );
  });

  it('refuses to write an invalid request', () => {
    expect(() => formatPaymentUri({ ...store, amount_paise: 0n })).toThrow();
    expect(() => formatPaymentUri({ ...store, payee_name: '' })).toThrow();
    expect(() => formatPaymentUri({ ...store, payee: { kind: 'user', id: USER_ID } })).toThrow();
  });

  it('cuts a long name to 60 whole characters', () => {
    expect(Array.from(payeeNameForUri('क'.repeat(80)))).toHaveLength(60);
    expect(payeeNameForUri(' Chai ')).toBe('Chai');
    expect(payeeNameForUri('😀'.repeat(61)).endsWith('😀')).toBe(true);
  });
});
