import { LeaseLostError } from '../../lib/ledger/errors.js';
import type { CounterField } from '../../lib/ledger/items.js';
import type { ClaimResult, Ledger, NewRun, Release, RunPatch } from '../../lib/ledger/ledger.js';
import { type Metatile, metatileOfRecord } from '../../lib/model/metatile.js';
import {
  isExpiredClaim,
  type MetatileRecord,
  type RunRecord,
  type RunStatus,
  STOPPED_RUN_STATUSES,
  type TileError,
  type TileState,
} from '../../lib/model/run.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type Counters = Record<CounterField, number>;
const zero = (): Counters => ({ done: 0, failed: 0, cancelled: 0, parked: 0, interrupted: 0, retried: 0 });

const OUTCOME_OF: Partial<Record<TileState, 'done' | 'failed' | 'parked' | 'cancelled'>> = {
  DONE: 'done',
  FAILED: 'failed',
  PARKED: 'parked',
  CANCELLED: 'cancelled',
};
const COUNTER_OF: Partial<Record<TileState, CounterField>> = {
  PARKED: 'parked',
  CANCELLED: 'cancelled',
  FAILED: 'failed',
};

export interface MemoryLedger extends Ledger {
  /** Ledger writes so far (claims, markers, releases, parks, …): what DynamoDB would bill. */
  readonly writes: number;
}

/**
 * The whole Ledger in memory, with the DynamoDB adapter's semantics (conditional claims, leases,
 * owner-only transitions, counters in sub-tiles, parking of dead workers' claims, the reaper over
 * every run): for unit tests of the worker's and the coordinator's logic.
 */
export function createMemoryLedger(options: { now?: () => number } = {}): MemoryLedger {
  const now = options.now ?? Date.now;
  const iso = () => new Date(now()).toISOString();
  const runs = new Map<string, Mutable<Omit<RunRecord, 'counters'>> & { total: number; counts: Counters }>();
  const units = new Map<string, Map<string, Mutable<MetatileRecord>>>();
  let writes = 0;

  const unitsOf = (runId: string) => {
    const map = units.get(runId) ?? new Map<string, Mutable<MetatileRecord>>();
    units.set(runId, map);
    return map;
  };
  const count = (runId: string, field: CounterField, n: number) => {
    const run = runs.get(runId);
    if (run) run.counts[field] += n;
  };
  const copy = (u: Mutable<MetatileRecord>): MetatileRecord => structuredClone(u);
  const toRecord = (r: NonNullable<ReturnType<typeof runs.get>>): RunRecord => {
    const { counts, total, ...rest } = r;
    return structuredClone({ ...rest, counters: { total, ...counts } });
  };
  const expired = (u: MetatileRecord | undefined, at = now()) => isExpiredClaim(u, at);
  const dropLease = (u: Mutable<MetatileRecord>) => {
    delete u.owner;
    delete u.leaseUntil;
  };
  const fresh = (runId: string, m: Metatile): Mutable<MetatileRecord> => ({
    runId,
    metatileId: m.id,
    tiles: [...m.tiles],
    ...(m.members ? { members: [...m.members] } : {}),
    state: 'QUEUED',
    attempts: 0,
    interruptions: 0,
  });
  /** The owner's transition: only while the claim is ours. */
  const owned = (runId: string, metatileId: string, owner: string) => {
    const u = unitsOf(runId).get(metatileId);
    return u && u.state === 'CLAIMED' && u.owner === owner ? u : undefined;
  };
  const stop = (runId: string, m: Metatile, state: 'PARKED' | 'CANCELLED', error: TileError, at = now()) => {
    const map = unitsOf(runId);
    const u = map.get(m.id);
    if (u && u.state !== 'QUEUED' && !expired(u, at)) return false;
    const next = u ?? fresh(runId, m);
    dropLease(next);
    Object.assign(next, { state, lastError: error });
    map.set(m.id, next);
    count(runId, state === 'PARKED' ? 'parked' : 'cancelled', m.tiles.length);
    writes += 1;
    return true;
  };

  const ledger: MemoryLedger = {
    get writes() {
      return writes;
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

    async getMetatile(runId, metatileId) {
      const u = unitsOf(runId).get(metatileId);
      return u ? copy(u) : undefined;
    },
    async getMetatiles(runId, ids) {
      const found = new Map<string, MetatileRecord>();
      for (const id of ids) {
        const u = unitsOf(runId).get(id);
        if (u) found.set(id, copy(u));
      }
      return found;
    },
    async *listMetatiles(runId, options = {}) {
      for (const u of [...unitsOf(runId).values()])
        if (!options.states || options.states.includes(u.state)) yield copy(u);
    },

    async claim(runId, m, owner, leaseMs): Promise<ClaimResult> {
      const map = unitsOf(runId);
      const u = map.get(m.id);
      if (u && u.state !== 'QUEUED' && !expired(u)) {
        const final = OUTCOME_OF[u.state];
        return final ? { outcome: final } : { outcome: 'held', leaseUntil: u.leaseUntil ?? now() };
      }
      const next = u ?? fresh(runId, m);
      Object.assign(next, {
        state: 'CLAIMED',
        owner,
        leaseUntil: now() + leaseMs,
        tiles: [...m.tiles],
        ...(m.members ? { members: [...m.members] } : {}),
      });
      next.attempts += 1;
      map.set(m.id, next);
      writes += 1;
      return { outcome: 'claimed', attempts: next.attempts };
    },
    async extendLease(runId, metatileId, owner, leaseMs) {
      const u = owned(runId, metatileId, owner);
      if (!u) throw new LeaseLostError(`lease on ${runId}/${metatileId} is no longer held by ${owner}`);
      u.leaseUntil = now() + leaseMs;
      writes += 1;
    },
    async release(runId, m, owner, release: Release) {
      const u = owned(runId, m.id, owner);
      if (!u) return;
      dropLease(u);
      u.state = release.state;
      if (release.error) u.lastError = release.error;
      const n = m.tiles.length;
      if (release.state !== 'QUEUED') count(runId, release.state === 'PARKED' ? 'parked' : 'cancelled', n);
      else if (release.interrupted === true) {
        u.interruptions += 1;
        count(runId, 'interrupted', n);
      } else if (release.error) count(runId, 'retried', n);
      writes += 1;
    },
    async markDone(runId, m, owner, outputs, durationMs) {
      const missing = m.tiles.filter((t) => !outputs.has(t.id));
      if (missing.length > 0)
        throw new RangeError(`marker for ${runId}/${m.id} lacks outputs of ${missing.length} tiles`);
      const u = owned(runId, m.id, owner);
      if (!u) throw new LeaseLostError(`cannot mark ${runId}/${m.id} done: the lease is no longer ours`);
      dropLease(u);
      Object.assign(u, { state: 'DONE', outputs: Object.fromEntries(outputs), durationMs, doneBy: owner });
      count(runId, 'done', m.tiles.length);
      writes += 1;
    },
    async markFailed(runId, m, owner, error) {
      const u = owned(runId, m.id, owner);
      if (!u) throw new LeaseLostError(`cannot mark ${runId}/${m.id} failed: the lease is no longer ours`);
      dropLease(u);
      Object.assign(u, { state: 'FAILED', error, doneBy: owner });
      count(runId, 'failed', m.tiles.length);
      writes += 1;
    },

    async park(runId, metatiles, state, error) {
      for (const m of metatiles) stop(runId, m, state, error);
    },
    async unpark(runId, only) {
      const moved: Metatile[] = [];
      for (const u of unitsOf(runId).values()) {
        const counter = COUNTER_OF[u.state];
        if (only ? !counter || !only(copy(u)) : !counter && !expired(u)) continue;
        if (counter) count(runId, counter, -u.tiles.length);
        dropLease(u);
        Object.assign(u, { state: 'QUEUED', attempts: 0 });
        moved.push(metatileOfRecord(u));
        writes += 1;
      }
      return moved;
    },
    async reapExpiredLeases(at) {
      let reaped = 0;
      for (const [runId, map] of units) {
        const status = runs.get(runId)?.status;
        for (const u of map.values()) {
          if (!expired(u, at)) continue;
          if (status && STOPPED_RUN_STATUSES.includes(status)) {
            const state = status === 'CANCELLED' ? 'CANCELLED' : 'PARKED';
            const error = {
              class: 'LeaseExpiredError',
              message: 'the worker holding it stopped renewing its lease',
            };
            stop(runId, metatileOfRecord(u), state, error, at);
          } else {
            dropLease(u);
            u.state = 'QUEUED';
            writes += 1;
          }
          reaped += 1;
        }
      }
      return reaped;
    },
  };
  return ledger;
}
