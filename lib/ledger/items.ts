import type { ParentRef } from '../model/metatile.js';
import type { MetatileRecord, RunCounters, RunHead, RunRecord, TileRecord } from '../model/run.js';
import type { TileTask } from '../model/tile.js';

export const COUNTER_FIELDS = ['done', 'failed', 'cancelled', 'parked', 'interrupted', 'retried'] as const;
export type CounterField = (typeof COUNTER_FIELDS)[number];

/** Every counter at zero. */
export const zeroCounters = (): Record<CounterField, number> =>
  Object.fromEntries(COUNTER_FIELDS.map((f) => [f, 0])) as Record<CounterField, number>;

/** Sums counter shard items (and any counts still on the run item) into the run's counters. */
export function sumCounters(total: number, items: readonly Record<string, unknown>[]): RunCounters {
  const sums = zeroCounters();
  for (const item of items) for (const f of COUNTER_FIELDS) sums[f] += Number(item[f] ?? 0);
  return { total, ...sums };
}

/** Maps a stored run item and its counter shards to the domain record. */
export function toRunRecord(
  item: Record<string, unknown>,
  shards: readonly Record<string, unknown>[],
): RunRecord {
  return { ...toRunHead(item), counters: sumCounters(Number(item.total ?? 0), [item, ...shards]) };
}

/** The run's META item alone, without the counters its shards hold. */
export function toRunHead(item: Record<string, unknown>): RunHead {
  return {
    runId: String(item.runId),
    status: item.status as RunRecord['status'],
    source: item.source as RunRecord['source'],
    operation: item.operation as RunRecord['operation'],
    params: (item.params ?? {}) as RunRecord['params'],
    paramsVersion: String(item.paramsVersion ?? ''),
    breaker: item.breaker as RunRecord['breaker'],
    reason: item.reason as string | undefined,
    executionArn: item.executionArn as string | undefined,
    sourceDatetime: item.sourceDatetime as string | undefined,
    warnings: item.warnings as string[] | undefined,
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
  };
}

const optionalNumber = (v: unknown) => (v === undefined ? undefined : Number(v));

export function toMetatileRecord(item: Record<string, unknown>): MetatileRecord {
  return {
    runId: String(item.runId),
    metatileId: String(item.metatileId),
    tiles: (item.tiles ?? []) as TileTask[],
    ...(Array.isArray(item.members) ? { members: (item.members as unknown[]).map(Number) } : {}),
    ...(item.up ? { up: item.up as ParentRef } : {}),
    ...(Array.isArray(item.children) ? { children: (item.children as unknown[]).map(String) } : {}),
    state: item.state as MetatileRecord['state'],
    owner: item.owner as string | undefined,
    leaseUntil: optionalNumber(item.leaseUntil),
    attempts: Number(item.attempts ?? 0),
    interruptions: Number(item.interruptions ?? 0),
    outputs: item.outputs as MetatileRecord['outputs'],
    doneBy: item.doneBy as string | undefined,
    error: item.error as MetatileRecord['error'],
    lastError: item.lastError as MetatileRecord['lastError'],
    durationMs: optionalNumber(item.durationMs),
    updatedAt: item.updatedAt === undefined ? undefined : String(item.updatedAt),
  };
}

/** The per-tile view of a metatile record: each tile with the metatile's state and its own output. */
export function tilesOf(record: MetatileRecord): TileRecord[] {
  return record.tiles.map((tile) => ({
    runId: record.runId,
    tileId: tile.id,
    metatileId: record.metatileId,
    z: tile.z,
    x: tile.x,
    y: tile.y,
    state: record.state,
    owner: record.owner,
    leaseUntil: record.leaseUntil,
    attempts: record.attempts,
    interruptions: record.interruptions,
    output: record.outputs?.[tile.id],
    error: record.error,
    lastError: record.lastError,
    durationMs: record.durationMs,
    updatedAt: record.updatedAt,
  }));
}
