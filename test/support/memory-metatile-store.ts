import type { CounterField } from '../../lib/ledger/items.js';
import { toMetatileRecord } from '../../lib/ledger/items.js';
import { holds } from '../../lib/ledger/metatiles/guard.js';
import type { MetatileStore } from '../../lib/ledger/metatiles/store.js';
import { LEASE_FIELDS } from '../../lib/ledger/metatiles/transitions.js';
import type { MetatileRecord, RunStatus } from '../../lib/model/run.js';

type Item = Record<string, unknown>;

export interface MemoryMetatileStore extends MetatileStore {
  getMetatiles(runId: string, ids: readonly string[]): Promise<Map<string, MetatileRecord>>;
  /** Transitions applied so far: what DynamoDB would bill as writes. */
  readonly writes: number;
}

/**
 * Metatile items in memory, read through the adapter's own item mapping. It executes the
 * state machine's rows (lib/ledger/metatiles/transitions.ts) as DynamoDB would — the guard,
 * then the item's SET, ADD and REMOVE and the run's counts — and has no transitions of its own.
 */
export function createMemoryMetatileStore(run: {
  now: () => number;
  count: (runId: string, field: CounterField, n: number) => void;
  status: (runId: string) => RunStatus | undefined;
}): MemoryMetatileStore {
  const items = new Map<string, Map<string, Item>>();
  let writes = 0;
  const itemsOf = (runId: string) => {
    const map = items.get(runId) ?? new Map<string, Item>();
    items.set(runId, map);
    return map;
  };
  const read = (item: Item | undefined) => (item ? toMetatileRecord(structuredClone(item)) : undefined);

  return {
    now: run.now,
    get writes() {
      return writes;
    },
    async apply(runId, metatileId, t) {
      const map = itemsOf(runId);
      const item = map.get(metatileId);
      if (!holds(t.guard, read(item))) return undefined;
      const next: Item = { ...item };
      for (const [k, v] of Object.entries(t.set)) if (v !== undefined) next[k] = structuredClone(v);
      for (const [k, n] of Object.entries(t.add)) next[k] = Number(next[k] ?? 0) + n;
      if (t.dropLease) for (const f of LEASE_FIELDS) delete next[f];
      map.set(metatileId, next);
      for (const [f, n] of Object.entries(t.counts)) if (n) run.count(runId, f as CounterField, n);
      writes += 1;
      return { attempts: Number(next.attempts ?? 0) };
    },
    async getMetatile(runId, metatileId) {
      return read(itemsOf(runId).get(metatileId));
    },
    async getMetatiles(runId, ids) {
      const found = new Map<string, MetatileRecord>();
      for (const id of ids) {
        const record = read(itemsOf(runId).get(id));
        if (record) found.set(id, record);
      }
      return found;
    },
    async *listMetatiles(runId, options = {}) {
      for (const item of [...itemsOf(runId).values()]) {
        const record = read(item)!;
        if (!options.states || options.states.includes(record.state)) yield record;
      }
    },
    // As the sparse `leases` index: the items that carry a lease, whatever their run's state.
    async *expiredLeases(now) {
      for (const [runId, map] of items)
        for (const [metatileId, item] of [...map])
          if (item.leaseShard !== undefined && Number(item.leaseUntil) < now) yield { runId, metatileId };
    },
    async runStatus(runId) {
      return run.status(runId);
    },
  };
}
