import { randomBytes } from 'node:crypto';
import { CheckpointSigner, openCheckpoint } from '@hasta/tlog/checkpoint';
import { generateNoteKeys, parseSignerKey, parseVerifierKey } from '@hasta/tlog/note';
import { describe, expect, it } from 'vitest';
import { nativeNoteSigner } from './native-note-signer';

describe('the native note signer', () => {
  it('signs exactly as the pure JS signer, and its checkpoints verify', () => {
    const keys = generateNoteKeys('hasta.example/log');
    const native = nativeNoteSigner(keys.signerKey);
    const reference = parseSignerKey(keys.signerKey);
    expect([native.name, native.keyId, native.verifierKey]).toEqual([
      reference.name,
      reference.keyId,
      reference.verifierKey,
    ]);
    for (let i = 0; i < 20; i += 1) {
      const message = randomBytes(i * 7);
      expect(native.sign(message)).toEqual(reference.sign(message));
    }
    const root = new Uint8Array(32).fill(7);
    const note = new CheckpointSigner({ signer: native }).sign({ size: 1, root });
    expect(openCheckpoint(note, parseVerifierKey(keys.verifierKey))).toMatchObject({
      ok: true,
      value: { size: 1 },
    });
  });

  it('refuses a signer key whose key ID does not match', () => {
    const keys = generateNoteKeys('hasta.example/log');
    const [, head, id, seed] = /^(PRIVATE\+KEY\+[^+]+\+)([0-9a-f]{8})(\+.+)$/.exec(keys.signerKey)!;
    const wrongId = (Number.parseInt(id!, 16) ^ 1).toString(16).padStart(8, '0');
    expect(() => nativeNoteSigner(`${head}${id}${seed}`)).not.toThrow();
    expect(() => nativeNoteSigner(`${head}${wrongId}${seed}`)).toThrow();
  });
});
