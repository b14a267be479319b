import type { CounterField } from '../../lib/ledger/items.js';
import type { Ledger, NewRun, RunPatch } from '../../lib/ledger/ledger.js';
import { batchOperations } from '../../lib/ledger/metatiles/batch-operations.js';
import { claimOperation } from '../../lib/ledger/metatiles/claim.js';
import type { RunRecord, RunStatus } from '../../lib/model/run.js';
import { createMemoryMetatileStore } from './memory-metatile-store.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type Counters = Record<CounterField, number>;
const zero = (): Counters => ({ done: 0, failed: 0, cancelled: 0, parked: 0, interrupted: 0, retried: 0 });

export interface MemoryLedger extends Ledger {
  /** Ledger writes so far (claims, markers, releases, parks, …): what DynamoDB would bill. */
  readonly writes: number;
}

/**
 * The whole Ledger in memory, for unit tests of the worker's and the coordinator's logic: runs
 * kept here, metatiles by the ledger's own operations (lib/ledger/metatiles/) over an in-memory
 * store, so claims, leases, markers, parking and the reaper are the adapter's code, not a copy.
 */
export function createMemoryLedger(options: { now?: () => number } = {}): MemoryLedger {
  const now = options.now ?? Date.now;
  const iso = () => new Date(now()).toISOString();
  const runs = new Map<string, Mutable<Omit<RunRecord, 'counters'>> & { total: number; counts: Counters }>();
  /** Run writes; the metatile store counts its own. */
  let writes = 0;

  const count = (runId: string, field: CounterField, n: number) => {
    const run = runs.get(runId);
    if (run) run.counts[field] += n;
  };
  const toRecord = (r: NonNullable<ReturnType<typeof runs.get>>): RunRecord => {
    const { counts, total, ...rest } = r;
    return structuredClone({ ...rest, counters: { total, ...counts } });
  };
  const store = createMemoryMetatileStore({ now, count, status: (runId) => runs.get(runId)?.status });
  const owner = claimOperation(store);
  const batches = batchOperations(store);

  const ledger: MemoryLedger = {
    get writes() {
      return writes + store.writes;
    },
    async createRun(run: NewRun) {
      if (runs.has(run.runId)) return 'exists';
      const at = iso();
      const { total, ...rest } = run;
      runs.set(run.runId, {
        ...structuredClone(rest),
        total,
        counts: zero(),
        breaker: 'CLOSED',
        createdAt: at,
        updatedAt: at,
      });
      writes += 1;
      return 'created';
    },
    async getRun(runId) {
      const r = runs.get(runId);
      return r ? toRecord(r) : undefined;
    },
    async getRunHead(runId) {
      const r = runs.get(runId);
      if (!r) return undefined;
      const { counters: _, ...head } = toRecord(r);
      return head;
    },
    async updateRun(runId, patch: RunPatch, onlyFrom?: readonly RunStatus[]) {
      const r = runs.get(runId);
      if (!r || (onlyFrom && onlyFrom.length > 0 && !onlyFrom.includes(r.status))) return false;
      for (const [k, v] of Object.entries(patch)) if (v !== undefined) Object.assign(r, { [k]: v });
      r.updatedAt = iso();
      writes += 1;
      return true;
    },
    async resetBreaker(runId) {
      const r = runs.get(runId);
      if (!r) return;
      r.counts.retried = 0;
      r.breaker = 'CLOSED';
      writes += 1;
    },
    async listRuns(limit = 50) {
      return [...runs.values()]
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
        .slice(0, limit)
        .map(toRecord);
    },

    getMetatile: store.getMetatile,
    getMetatiles: store.getMetatiles,
    listMetatiles: store.listMetatiles,
    ...owner,
    ...batches,
  };
  return ledger;
}
