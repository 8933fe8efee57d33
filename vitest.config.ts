import { availableParallelism } from 'node:os';

import { defineConfig } from 'vitest/config';

// Timeouts sized for a busy machine (the suite must stay green on a newcomer's loaded laptop): tests wait on
// conditions, never on time, so a generous bound costs nothing when they pass. Property-based tests and
// argon2 hashing are the slow steps; vitest's 5 s default is an idle machine's figure.
export default defineConfig({
  test: {
    // One test file per core. vitest's default (cores - 1) runs the server files one at a time on a 2-core
    // machine, though its main process mostly waits: the files are independent (each has its own database).
    maxWorkers: availableParallelism(),
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/web/src/**/*.test.{ts,tsx}',
            'apps/web/build/**/*.test.ts',
            'scripts/**/*.test.ts',
            'bench/**/*.test.ts',
          ],
          environment: 'node',
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/{src,test}/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
