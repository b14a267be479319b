import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../../../lib/model/run.js';
import { waitForRun } from '../../../../local/server/wait-for-run.js';

/** A ledger whose run appears after `afterReads` reads, and an execution with a scripted status. */
function world(options: { afterReads?: number; status?: () => string | undefined }) {
  let reads = 0;
  let clock = 0;
  return {
    reads: () => reads,
    deps: {
      ledger: {
        getRun: async (runId: string) => {
          reads += 1;
          return options.afterReads !== undefined && reads > options.afterReads
            ? ({ runId } as RunRecord)
            : undefined;
        },
      },
      executionStatus: () => options.status?.() ?? 'RUNNING',
      sleep: async (ms: number) => {
        clock += ms;
      },
      now: () => clock,
    },
  };
}

describe('waitForRun', () => {
  it('returns once the split has recorded the run', async () => {
    const w = world({ afterReads: 3 });
    expect(await waitForRun(w.deps, 'r-1', 'arn:1')).toBe(true);
    expect(w.reads()).toBe(4);
  });

  it('stops waiting when the execution ended before recording the run', async () => {
    const w = world({ status: () => 'FAILED' });
    expect(await waitForRun(w.deps, 'r-1', 'arn:1')).toBe(false);
    expect(w.reads()).toBe(1);
  });

  it('gives up at its bound when nothing happens', async () => {
    const w = world({});
    expect(await waitForRun(w.deps, 'r-1', 'arn:1', { timeoutMs: 1_000, everyMs: 100 })).toBe(false);
    expect(w.reads()).toBe(11);
  });
});
