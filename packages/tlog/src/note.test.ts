import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BAD_VERIFIER_KEYS,
  ENOCH_SIGNATURE_LINE,
  ENOCH_VERIFIER_KEY,
  NOTE_TEXT,
  PETER_SIGNATURE_LINE,
  PETER_SIGNER_KEY,
  PETER_VERIFIER_KEY,
} from './fixtures/golang-note';
import { generateNoteKeys, openNote, parseSignerKey, parseVerifierKey, signNote } from './note';

const hasControlCharacter = (text: string): boolean => [...text].some((c) => c.charCodeAt(0) < 0x20);

const peter = parseVerifierKey(PETER_VERIFIER_KEY);
const enoch = parseVerifierKey(ENOCH_VERIFIER_KEY);

describe('signed note keys (golang.org/x/mod/sumdb/note vectors)', () => {
  it('parses the verifier and signer keys, and they agree', () => {
    expect(peter).toMatchObject({ name: 'PeterNeumann', keyId: 0xc74f20a3 });
    const signer = parseSignerKey(PETER_SIGNER_KEY);
    expect(signer.keyId).toBe(0xc74f20a3);
    expect(signer.publicKey).toEqual(peter.publicKey);
    expect(signer.verifierKey).toBe(PETER_VERIFIER_KEY);
  });

  it('refuses every substring and every one-character change of a key, as TestNewVerifier does', () => {
    for (const key of [PETER_VERIFIER_KEY, PETER_SIGNER_KEY]) {
      const parse = key === PETER_VERIFIER_KEY ? parseVerifierKey : parseSignerKey;
      for (let i = 0; i <= key.length; i++) {
        for (let j = i + 1; j <= key.length; j++) {
          if (i === 0 && j === key.length) continue;
          expect(() => parse(key.slice(i, j)), key.slice(i, j)).toThrow();
        }
      }
      for (let i = 0; i < key.length; i++) {
        const changed = key.slice(0, i) + String.fromCharCode(key.charCodeAt(i) + 1) + key.slice(i + 1);
        expect(() => parse(changed), changed).toThrow();
      }
    }
    for (const key of BAD_VERIFIER_KEYS) expect(() => parseVerifierKey(key)).toThrow();
  });

  it('generates key pairs whose key IDs match', () => {
    const { signerKey, verifierKey } = generateNoteKeys('hasta.example/log');
    const signer = parseSignerKey(signerKey);
    expect(parseVerifierKey(verifierKey)).toMatchObject({ name: signer.name, keyId: signer.keyId });
    expect(() => generateNoteKeys('bad name')).toThrow();
    expect(() => generateNoteKeys('a+b')).toThrow();
  });
});

describe('signNote and openNote', () => {
  it('signs exactly as Go does (TestSign)', () => {
    expect(signNote(NOTE_TEXT, [parseSignerKey(PETER_SIGNER_KEY)])).toBe(
      `${NOTE_TEXT}\n${PETER_SIGNATURE_LINE}`,
    );
    expect(() => signNote('abc', [parseSignerKey(PETER_SIGNER_KEY)])).toThrow('malformed note text');
  });

  it('opens the TestOpen notes: known keys verify, unknown keys are ignored', () => {
    const both = `${NOTE_TEXT}\n${PETER_SIGNATURE_LINE}${ENOCH_SIGNATURE_LINE}`;
    expect(openNote(both, [peter])).toEqual({
      ok: true,
      value: {
        text: NOTE_TEXT,
        verified: [{ name: 'PeterNeumann', keyId: 0xc74f20a3 }],
        unverified: [{ name: 'EnochRoot', keyId: 0xaf0cfe78 }],
      },
    });
    const opened = openNote(both, [peter, enoch]);
    expect(opened.ok && opened.value.verified.length).toBe(2);
    expect(openNote(both, [])).toEqual({ ok: false, reason: 'note has no verifiable signatures' });
    expect(openNote(`${NOTE_TEXT}\n${ENOCH_SIGNATURE_LINE}`, [enoch, peter, enoch])).toEqual({
      ok: false,
      reason: 'ambiguous key EnochRoot+af0cfe78',
    });
    expect(openNote(`${NOTE_TEXT}\n${PETER_SIGNATURE_LINE}`, [enoch, peter, enoch]).ok).toBe(true);
  });

  it('refuses a note with too many signatures, a bad signature, or bad syntax (TestOpen)', () => {
    expect(openNote(`${NOTE_TEXT}\n${PETER_SIGNATURE_LINE.repeat(101)}`, [peter]).ok).toBe(false);
    const corrupted = PETER_SIGNATURE_LINE.slice(0, 60) + 'ABCD' + PETER_SIGNATURE_LINE.slice(60);
    expect(openNote(`${NOTE_TEXT}\n${corrupted}`, [peter])).toEqual({
      ok: false,
      reason: 'invalid signature for key PeterNeumann+c74f20a3',
    });
    const bad = [
      NOTE_TEXT,
      `${NOTE_TEXT}\n`,
      `${NOTE_TEXT}\n${PETER_SIGNATURE_LINE.slice(0, -1)}`,
      `\u0001${NOTE_TEXT}\n${PETER_SIGNATURE_LINE}`,
      `\ud800${NOTE_TEXT}\n${PETER_SIGNATURE_LINE}`,
      `${NOTE_TEXT}\n\u2014 Bad Name x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=`,
      `${NOTE_TEXT}\n${PETER_SIGNATURE_LINE}Unexpected line.\n`,
    ];
    for (const message of bad) expect(openNote(message, [peter]).ok, JSON.stringify(message)).toBe(false);
  });

  it('ignores a signature under another name or key ID, so a note signed only that way is refused', () => {
    const misnamed = PETER_SIGNATURE_LINE.replace('PeterNeumann', 'CarmenSandiego');
    expect(openNote(`${NOTE_TEXT}\n${misnamed}`, [peter]).ok).toBe(false);
    const otherId = PETER_SIGNATURE_LINE.replace('x08g', 'xxxx');
    expect(openNote(`${NOTE_TEXT}\n${otherId}`, [peter]).ok).toBe(false);
  });

  it('round-trips any note text and refuses it under another key or after any change (property)', () => {
    const { signerKey, verifierKey } = generateNoteKeys('hasta.example/log', new Uint8Array(32).fill(7));
    const signer = parseSignerKey(signerKey);
    const verifier = parseVerifierKey(verifierKey);
    const other = parseVerifierKey(
      generateNoteKeys('hasta.example/log', new Uint8Array(32).fill(8)).verifierKey,
    );
    const line = fc
      .string({ unit: 'grapheme', minLength: 1, maxLength: 30 })
      .filter((s) => !hasControlCharacter(s));
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 5 }), fc.nat(), (lines, at) => {
        const text = `${lines.join('\n')}\n`;
        const note = signNote(text, [signer]);
        const opened = openNote(note, [verifier]);
        expect(opened.ok && opened.value.text).toBe(text);
        expect(openNote(note, [other]).ok).toBe(false);
        const i = at % (text.length - 1);
        const changed = text.slice(0, i) + (text[i] === 'x' ? 'y' : 'x') + text.slice(i + 1);
        expect(openNote(changed + note.slice(text.length), [verifier]).ok).toBe(false);
      }),
    );
  });
});
