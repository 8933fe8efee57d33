import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { concatBytes } from './encoding';
import { EMPTY_ROOT, leafHash, nodeHash, sha256 } from './hashing';
import { nodeTreeHasher } from './sha256-node';

describe('tree hashes', () => {
  it('equal a fresh SHA-256 of the prefixed input, whatever came before (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.uint8Array({ maxLength: 300 }).map((entry) => ({ entry })),
            fc
              .tuple(
                fc.uint8Array({ minLength: 32, maxLength: 32 }),
                fc.uint8Array({ minLength: 32, maxLength: 32 }),
              )
              .map(([left, right]) => ({ left, right })),
          ),
          { minLength: 1, maxLength: 20 },
        ),
        (calls) => {
          for (const call of calls) {
            if ('entry' in call) {
              expect(leafHash(call.entry)).toEqual(sha256(concatBytes(Uint8Array.of(0), call.entry)));
              expect(nodeTreeHasher.leaf(call.entry)).toEqual(leafHash(call.entry));
            } else {
              const expected = sha256(concatBytes(Uint8Array.of(1), call.left, call.right));
              expect(nodeHash(call.left, call.right)).toEqual(expected);
              expect(nodeTreeHasher.node(call.left, call.right)).toEqual(expected);
            }
          }
        },
      ),
    );
  });

  it('returns a fresh array each time and refuses children that are not 32-byte hashes', () => {
    const first = leafHash(Uint8Array.of(1));
    const second = leafHash(Uint8Array.of(2));
    expect(first).not.toEqual(second);
    expect(first).toEqual(leafHash(Uint8Array.of(1)));
    expect(() => nodeHash(new Uint8Array(31), EMPTY_ROOT)).toThrow(RangeError);
    const large = new Uint8Array(100_000).fill(5);
    expect(leafHash(large)).toEqual(sha256(concatBytes(Uint8Array.of(0), large)));
    expect(nodeTreeHasher.leaf(large)).toEqual(leafHash(large));
  });
});
