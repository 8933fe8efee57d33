import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, type JsonValue } from './canonical-json';
import { bytesToHex, concatBytes, utf8ToBytes } from './encoding';
import {
  coarseTime,
  createEntry,
  encodeEntry,
  entrySubject,
  parseEntry,
  recordCommitment,
  verifyCommitment,
  type LogEntry,
} from './entry';
import { sha256 } from './hashing';

const secret = new Uint8Array(32).fill(9);
const salt = new Uint8Array(32).fill(3);

describe('canonicalJson', () => {
  it('sorts keys, drops whitespace and writes bigint as exact digits', () => {
    expect(canonicalJson({ b: 1, a: [true, null, 'x'], c: { z: 1n, y: -0 } })).toBe(
      '{"a":[true,null,"x"],"b":1,"c":{"y":0,"z":1}}',
    );
    expect(canonicalJson({ amount_paise: 12_345_678_901_234_567n })).toBe(
      '{"amount_paise":12345678901234567}',
    );
    expect(canonicalJson({ é: 1, e: 2, E: 3 })).toBe('{"E":3,"e":2,"é":1}');
  });

  it('refuses what JSON cannot say exactly', () => {
    expect(() => canonicalJson({ a: Number.NaN })).toThrow();
    expect(() => canonicalJson({ a: undefined } as unknown as JsonValue)).toThrow(/undefined/);
    expect(() => canonicalJson({ at: new Date() } as unknown as JsonValue)).toThrow(/plain objects/);
    let deep: JsonValue = 1;
    for (let i = 0; i < 40; i++) deep = [deep];
    expect(() => canonicalJson(deep)).toThrow(/deeply/);
  });

  it('is JSON that parses back to the same canonical text (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value as JsonValue);
        expect(canonicalJson(JSON.parse(text) as JsonValue)).toBe(text);
      }),
    );
  });
});

describe('entries', () => {
  const record = { user_id: 'u-1', amount_paise: 2_500n, merchant: 'm-7', note: 'chai' };

  it('truncates time to the minute in UTC', () => {
    expect(coarseTime(new Date('2025-01-31T09:41:59.999Z'))).toBe('2025-01-31T09:41:00.000Z');
    expect(coarseTime(new Date('1969-12-31T23:59:30.500Z'))).toBe('1969-12-31T23:59:00.000Z');
  });

  it('builds the entry: pseudonymous subject, coarse time, salted commitment', () => {
    const entry = createEntry({
      serverSecret: secret,
      userId: 'u-1',
      type: 'payment',
      at: new Date('2025-01-31T09:41:27Z'),
      record,
      salt,
    });
    expect(entry).toEqual({
      v: 1,
      subject: entrySubject(secret, 'u-1'),
      type: 'payment',
      time: '2025-01-31T09:41:00.000Z',
      commitment: bytesToHex(sha256(concatBytes(salt, utf8ToBytes(canonicalJson(record))))),
    });
    expect(entry.subject).not.toBe(entrySubject(new Uint8Array(32).fill(8), 'u-1'));
    expect(encodeEntry(entry)).toBe(
      `{"commitment":"${entry.commitment}","subject":"${entry.subject}","time":"2025-01-31T09:41:00.000Z","type":"payment","v":1}`,
    );
    // Nothing of the record, the user id or the exact time appears in the logged text.
    expect(encodeEntry(entry)).not.toMatch(/u-1|chai|2500|:27/);
  });

  it('refuses short secrets and salts', () => {
    expect(() => entrySubject(new Uint8Array(16), 'u-1')).toThrow(RangeError);
    expect(() => recordCommitment(record, new Uint8Array(8))).toThrow(RangeError);
  });

  it('opens a commitment with the record and salt, and with nothing else', () => {
    const commitment = recordCommitment(record, salt);
    expect(verifyCommitment(record, salt, commitment)).toBe(true);
    expect(verifyCommitment({ ...record, amount_paise: 2_501n }, salt, commitment)).toBe(false);
    expect(verifyCommitment(record, new Uint8Array(32).fill(4), commitment)).toBe(false);
    expect(verifyCommitment(record, salt, commitment.toUpperCase())).toBe(false);
    expect(verifyCommitment(record, salt, 'not hex')).toBe(false);
    // Key order does not matter: the record is canonicalised.
    const reordered = { note: 'chai', merchant: 'm-7', amount_paise: 2_500n, user_id: 'u-1' };
    expect(verifyCommitment(reordered, salt, commitment)).toBe(true);
  });

  it('parses only well-formed entries in canonical form', () => {
    const entry: LogEntry = {
      v: 1,
      subject: 'a'.repeat(64),
      type: 'consent.granted',
      time: '2025-01-31T09:41:00.000Z',
      commitment: 'b'.repeat(64),
    };
    const text = encodeEntry(entry);
    expect(parseEntry(text)).toEqual({ ok: true, value: entry });
    const variants = [
      JSON.stringify(entry),
      text.replace('"v":1', '"v":2'),
      text.replace('consent.granted', 'consent.revoked'),
      text.replace(':00.000Z', ':01.000Z'),
      text.replace('2025-01-31T09:41', '2025-02-30T09:41'),
      text.replace('a'.repeat(64), 'A'.repeat(64)),
      text.replace('}', ',"extra":1}'),
      text.replace('"b', ' "b'),
      'null',
      '[',
    ];
    for (const variant of variants) expect(parseEntry(variant).ok, variant).toBe(false);
  });
});
