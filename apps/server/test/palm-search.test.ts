import { randomUUID } from 'node:crypto';
import type { PalmScan } from '@hasta/contracts/palm';
import { extractFeatures } from '@hasta/palm/features';
import { serializeTemplate } from '@hasta/palm/protect';
import { createRng } from '@hasta/palm/random';
import { createIdentity, renderSample } from '@hasta/palm/synthetic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { palmKeyFrom } from '../src/palm/palm-keys';
import { PalmService } from '../src/palm/palm-service';
import { seal } from '../src/tlog/sealing';
import { buildTestApp, RAISED_PALM_RATE_LIMITS, testDatabaseKind, type TestApp } from './support/test-app';

const SEED = 20261125;
/** More palms than the search's shortlist (64), so that its first stage runs. */
const FILLERS = 90;

function scanOf(identity: number, samples: number[]): PalmScan {
  const palm = createIdentity(SEED, identity);
  return {
    frames: samples.map((s) => Buffer.from(renderSample(palm, s, 'medium', 128)).toString('base64')),
    source: 'demo',
  };
}

describe(`palm search in worker threads on ${testDatabaseKind}`, () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await buildTestApp({ env: { ...RAISED_PALM_RATE_LIMITS } });
  });
  afterAll(async () => test?.close());

  it('identifies through the workers as on the main thread, and closes them', async () => {
    const db = test.database.db;
    const key = palmKeyFrom('w'.repeat(40));
    const keys = { current: key, previous: undefined };
    // Filler palms: random protected templates of the key, stored as enrolment stores them.
    const shapeOf = key.protector.enrol(
      extractFeatures(renderSample(createIdentity(SEED, 999), 0, 'medium', 128), 128),
    );
    const rng = createRng(SEED);
    for (let i = 0; i < FILLERS / 2; i++) {
      const user = await db
        .insertInto('users')
        .values({
          username: `filler ${i}`,
          email: `filler-${i}-${randomUUID()}@example.com`,
          phone: null,
          password_hash: 'x',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const hand of ['left', 'right'] as const) {
        const id = randomUUID();
        const words = Uint32Array.from(shapeOf.words, () => rng.nextU32());
        await db
          .insertInto('palm_templates')
          .values({
            id,
            user_id: user.id,
            hand,
            key_id: key.keyIdHex,
            sealed_template: seal(
              key.sealKey,
              serializeTemplate({ ...shapeOf, words }),
              `palm template ${id}`,
            ),
            palm_hash: id,
          })
          .execute();
        await db
          .insertInto('palm_consents')
          .values({ id: randomUUID(), user_id: user.id, hand, withdrawn_at: null })
          .execute();
      }
    }
    const options = { demoMode: true, maxPaymentPaise: 500_000n };
    const parallel = new PalmService(db, keys, { ...options, searchThreads: 2, parallelSearchFrom: 1 });
    const single = new PalmService(db, keys, { ...options, parallelSearchFrom: 1_000_000 });
    try {
      await parallel.init();
      expect(parallel.gallerySize).toBe(FILLERS);
      const owner = await db
        .insertInto('users')
        .values({
          username: 'owner',
          email: `owner-${randomUUID()}@example.com`,
          phone: null,
          password_hash: 'x',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await parallel.enrol(owner.id, 'left', scanOf(1, [0, 1, 2]));
      await single.init();
      const viaWorkers = await parallel.identify(scanOf(1, [4, 5, 6]));
      const onMain = await single.identify(scanOf(1, [4, 5, 6]));
      expect(viaWorkers.userId).toBe(owner.id);
      expect(viaWorkers).toEqual(onMain);
      await expect(parallel.identify(scanOf(2, [0, 1, 2]))).rejects.toThrow();
      await expect(single.identify(scanOf(2, [0, 1, 2]))).rejects.toThrow();
      // Every search of the parallel service ran its first stage in the workers; none of the other's did.
      expect(parallel.searchPaths.workers).toBeGreaterThanOrEqual(5);
      expect(parallel.searchPaths.wasm + parallel.searchPaths.js + parallel.searchPaths.none).toBe(0);
      expect(single.searchPaths.workers).toBe(0);
      expect(single.searchPaths.wasm).toBeGreaterThanOrEqual(4);
    } finally {
      await parallel.close();
      await single.close();
    }
  });
});
