import type { Ledger, NewRun, RunPatch } from '../../../../lib/ledger/ledger.js';
import type { RunCounters, RunRecord, RunStatus } from '../../../../lib/model/run.js';

/**
 * A Ledger test double holding runs in memory: the run calls split makes, with the adapter's
 * semantics (create never overwrites; conditional update). Sub-tile calls are not needed here.
 */
export function createMemoryLedger(): Ledger & { runs: Map<string, RunRecord> } {
  const runs = new Map<string, RunRecord>();
  const notHere = () => Promise.reject(new Error('not implemented in the memory ledger'));
  const now = () => new Date().toISOString();
  // Built as a variable, not returned as a literal: the Ledger interface grows while this double
  // implements only what split needs (the rest rejects).
  const ledger = {
    runs,
    async createRun(run: NewRun) {
      if (runs.has(run.runId)) return 'exists';
      runs.set(run.runId, {
        runId: run.runId,
        status: run.status,
        source: run.source,
        operation: run.operation,
        params: run.params,
        paramsVersion: run.paramsVersion,
        counters: {
          total: run.total,
          done: 0,
          failed: 0,
          cancelled: 0,
          parked: 0,
          interrupted: 0,
          retried: 0,
        } as RunCounters,
        executionArn: run.executionArn,
        createdAt: now(),
        updatedAt: now(),
      });
      return 'created';
    },
    async getRun(runId: string) {
      return runs.get(runId);
    },
    async updateRun(runId: string, patch: RunPatch, onlyFrom?: readonly RunStatus[]) {
      const run = runs.get(runId);
      if (!run || (onlyFrom && !onlyFrom.includes(run.status))) return false;
      runs.set(runId, {
        ...run,
        ...(patch.status ? { status: patch.status } : {}),
        ...(patch.reason ? { reason: patch.reason } : {}),
        counters: { ...run.counters, ...(patch.total === undefined ? {} : { total: patch.total }) },
        updatedAt: now(),
      });
      return true;
    },
    async listRuns() {
      return [...runs.values()];
    },
    getTiles: notHere,
    listTiles: () => ({
      [Symbol.asyncIterator]: () => ({ next: notHere }),
    }),
    claimTile: notHere,
    extendLease: notHere,
    releaseTile: notHere,
    markDone: notHere,
    markFailed: notHere,
    parkTiles: notHere,
    unparkTiles: notHere,
    reapExpiredLeases: notHere,
    resetBreaker: notHere,
  };
  return ledger;
}
