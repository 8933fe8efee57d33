import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CheckpointRefusedError,
  CheckpointSigner,
  formatCheckpoint,
  openCheckpoint,
  parseCheckpoint,
  signCheckpoint,
} from './checkpoint';
import { base64ToBytes, utf8ToBytes } from './encoding';
import { EMPTY_ROOT, sha256 } from './hashing';
import { MerkleLog } from './merkle-log';
import { generateNoteKeys, parseSignerKey } from './note';

const hasControlCharacter = (text: string): boolean => [...text].some((c) => c.charCodeAt(0) < 0x20);

const ORIGIN = 'hasta.example/log';
const keys = generateNoteKeys(ORIGIN, new Uint8Array(32).fill(1));
const otherKeys = generateNoteKeys(ORIGIN, new Uint8Array(32).fill(2));
const signer = parseSignerKey(keys.signerKey);

function logOf(size: number, prefix = 'entry'): MerkleLog {
  const log = new MerkleLog();
  for (let i = 0; i < size; i++) log.append(utf8ToBytes(`${prefix} ${i}`));
  return log;
}

describe('checkpoint text', () => {
  it('formats and parses the C2SP body, extension lines included', () => {
    const root = base64ToBytes('CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=')!;
    const text = formatCheckpoint({
      origin: 'example.com/behind-the-sofa',
      size: 20852163,
      root,
      extensions: [],
    });
    expect(text).toBe(
      'example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n',
    );
    expect(parseCheckpoint(text)).toEqual({
      ok: true,
      value: { origin: 'example.com/behind-the-sofa', size: 20852163, root, extensions: [] },
    });
    const extended = parseCheckpoint(`${text}extra line\n`);
    expect(extended.ok && extended.value.extensions).toEqual(['extra line']);
  });

  it.each([
    ['no final newline', 'o\n1\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I='],
    ['two lines', 'o\n1\n'],
    ['empty origin', '\n1\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n'],
    ['leading zero', 'o\n01\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n'],
    ['signed size', 'o\n+1\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n'],
    ['huge size', 'o\n9007199254740993\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n'],
    ['short root', 'o\n1\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jx\n'],
    ['unpadded root', 'o\n1\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I\n'],
    ['empty extension line', 'o\n1\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n\n'],
  ])('refuses a body with %s', (_, text) => {
    expect(parseCheckpoint(text).ok).toBe(false);
  });

  it('round-trips any checkpoint (property)', () => {
    const origin = fc.string({ minLength: 1, maxLength: 40 }).filter((s) => !hasControlCharacter(s));
    fc.assert(
      fc.property(
        origin,
        fc.maxSafeNat(),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        (o, size, root) => {
          // A tree of size 0 has one root (issue 23): the others are malformed, not checkpoints.
          const checkpoint = { origin: o, size, root: size === 0 ? EMPTY_ROOT : root, extensions: [] };
          expect(parseCheckpoint(formatCheckpoint(checkpoint))).toEqual({ ok: true, value: checkpoint });
        },
      ),
    );
  });
});

describe('openCheckpoint', () => {
  const log = logOf(10);
  const note = signCheckpoint({ origin: ORIGIN, size: 10, root: log.root(), extensions: [] }, signer);

  it('opens a checkpoint signed by the key', () => {
    const opened = openCheckpoint(note, keys.verifierKey, ORIGIN);
    expect(opened.ok && opened.value.size).toBe(10);
    expect(opened.ok && opened.value.root).toEqual(log.root());
  });

  it('refuses another key, another origin, a changed body and a changed signature', () => {
    expect(openCheckpoint(note, otherKeys.verifierKey)).toEqual({
      ok: false,
      reason: `checkpoint is not signed by key ${ORIGIN}`,
    });
    expect(openCheckpoint(note, keys.verifierKey, 'other.example/log').ok).toBe(false);
    expect(openCheckpoint(note.replace('\n10\n', '\n11\n'), keys.verifierKey).ok).toBe(false);
    const signature = note.slice(note.lastIndexOf(' ') + 1);
    const flipped = signature.slice(0, 10) + (signature[10] === 'A' ? 'B' : 'A') + signature.slice(11);
    expect(openCheckpoint(note.replace(signature, flipped), keys.verifierKey).ok).toBe(false);
    expect(openCheckpoint(note, 'not a key').ok).toBe(false);
  });
});

describe('CheckpointSigner', () => {
  it('signs a growing log, each checkpoint consistent with the one before', () => {
    const checkpoints = new CheckpointSigner({ signer: keys.signerKey });
    const log = new MerkleLog();
    expect(openCheckpoint(checkpoints.signLog(log), keys.verifierKey).ok).toBe(true);
    for (let i = 0; i < 40; i++) {
      log.append(utf8ToBytes(`entry ${i}`));
      if (i % 3 === 0) expect(openCheckpoint(checkpoints.signLog(log), keys.verifierKey).ok).toBe(true);
    }
    expect(checkpoints.last).toEqual({ size: 40, root: log.root() });
    // Signing the same head again is fine: it is the same promise.
    expect(() => checkpoints.signLog(log)).not.toThrow();
  });

  it('signs a larger head given a consistency proof that verifies', () => {
    const log = logOf(20);
    const checkpoints = new CheckpointSigner({ signer, last: { size: 7, root: log.root(7) } });
    const note = checkpoints.sign({ size: 20, root: log.root() }, log.consistencyProof(7, 20));
    expect(openCheckpoint(note, keys.verifierKey, ORIGIN).ok).toBe(true);
  });

  it('refuses a smaller size, a forked root at the same size, a fork at a larger size and a missing proof', () => {
    const log = logOf(20);
    const fork = logOf(25, 'forged');
    const checkpoints = new CheckpointSigner({ signer, last: { size: 20, root: log.root() } });
    expect(() => checkpoints.sign({ size: 19, root: log.root(19) })).toThrow(CheckpointRefusedError);
    expect(() => checkpoints.sign({ size: 20, root: fork.root(20) })).toThrow(/another root for size 20/);
    expect(() => checkpoints.sign({ size: 25, root: fork.root() }, fork.consistencyProof(20, 25))).toThrow(
      /no valid consistency proof/,
    );
    log.append(utf8ToBytes('entry 20'));
    expect(() => checkpoints.sign({ size: 21, root: log.root() })).toThrow(/no valid consistency proof/);
    expect(() => checkpoints.signLog(fork)).toThrow(CheckpointRefusedError);
    // Nothing refused changed what the signer promised.
    expect(checkpoints.last).toEqual({ size: 20, root: log.root(20) });
  });

  it('refuses an empty tree with a root other than SHA-256 of nothing', () => {
    const checkpoints = new CheckpointSigner({ signer });
    expect(() => checkpoints.sign({ size: 0, root: sha256(utf8ToBytes('x')) })).toThrow(
      CheckpointRefusedError,
    );
    expect(() => checkpoints.sign({ size: 0, root: EMPTY_ROOT })).not.toThrow();
  });

  it('never signs two inconsistent heads, whatever it is asked (property)', () => {
    const honest = logOf(64);
    const forged = logOf(64, 'forged');
    fc.assert(
      fc.property(
        fc.array(fc.record({ size: fc.integer({ min: 1, max: 64 }), forked: fc.boolean() }), {
          maxLength: 12,
        }),
        (requests) => {
          const checkpoints = new CheckpointSigner({ signer });
          const signed: { size: number; root: Uint8Array }[] = [];
          for (const { size, forked } of requests) {
            const log = forked ? forged : honest;
            const last = checkpoints.last;
            const proof = last === null || last.size > size ? [] : log.consistencyProof(last.size, size);
            try {
              checkpoints.sign({ size, root: log.root(size) }, proof);
              signed.push({ size, root: log.root(size) });
            } catch (error) {
              expect(error).toBeInstanceOf(CheckpointRefusedError);
            }
          }
          // Every signed head is a prefix of the next: all come from one of the two logs, never both.
          const sources = new Set(
            signed.map((head) => (head.root.join() === honest.root(head.size).join() ? 'h' : 'f')),
          );
          expect(sources.size).toBeLessThanOrEqual(1);
          for (let i = 1; i < signed.length; i++)
            expect(signed[i]!.size).toBeGreaterThanOrEqual(signed[i - 1]!.size);
        },
      ),
    );
  });
});
