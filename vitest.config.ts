import { randomUUID } from 'node:crypto';
import { defineConfig } from 'vitest/config';

// The SDK warns on every Node 20 process that it will need Node 22 from 2027; it is noise in tests.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
// Every process the suites start inherits this mark, so checks for leftovers judge only this
// run's processes, not another one's on a shared machine (test/support/marked-processes.ts).
process.env.GEOHUB_SUITE_MARK ??= randomUUID();

export default defineConfig({
  test: {
    // An unhandled rejection or error anywhere fails the run (Vitest's default, said here so that
    // nobody turns it off): it is a promise nobody waited for, a bug in the code or in the test.
    dangerouslyIgnoreUnhandledErrors: false,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          // The worker limit of integration, so that both run as one group (Vitest wants one limit
          // per group): unit files fill the gaps of integration's (as a group of their own, one
          // after the other, they added 198 s to CI).
          maxWorkers: 2,
          // Some unit tests start a node or GDAL process; on a loaded machine that alone can take
          // seconds. Timings are the bench's business, not a test's.
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/support/global-stack.ts'],
          setupFiles: ['test/support/record-label.ts'],
          // Real emulators, real GDAL: generous per-test time. Two files at a time: one after the
          // other left a core idle while a file waited on its stack (1,527 s in CI against 1,189 s
          // two at a time). Every process-table and scratch check judges only what its own file
          // started (process groups, trees, marks, its hub's scratch), never the machine's.
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: true,
          maxWorkers: 2,
          pool: 'forks',
        },
      },
      {
        test: {
          // `npm run test:pdal` (scripts/test-pdal.sh puts a real PDAL on PATH): the point-cloud
          // paths on the engine the container image runs. Never part of `npm test`.
          name: 'pdal',
          include: ['test/pdal/**/*.test.ts'],
          testTimeout: 600_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          pool: 'forks',
        },
      },
      {
        test: {
          // `npm run test:image` (scripts/test-image.sh, after `npm run image`): the worker image
          // run as the worker, in podman, against a local stack. Never part of `npm test`.
          name: 'image',
          include: ['test/image/**/*.test.ts'],
          testTimeout: 600_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          pool: 'forks',
        },
      },
      {
        test: {
          name: 'e2e',
          // The built CLI as a user runs it: each test starts and stops its own stack.
          include: ['test/e2e/**/*.test.ts'],
          setupFiles: ['test/support/record-label.ts'],
          testTimeout: 300_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          pool: 'forks',
        },
      },
    ],
  },
});
