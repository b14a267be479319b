import type { RunRecord, TileRecord } from '../model/run.js';

/** Maps a stored run item to the domain record (counters default to 0). */
export function toRunRecord(item: Record<string, unknown>): RunRecord {
  const n = (name: string) => Number(item[name] ?? 0);
  return {
    runId: String(item.runId),
    status: item.status as RunRecord['status'],
    source: item.source as RunRecord['source'],
    operation: item.operation as RunRecord['operation'],
    params: (item.params ?? {}) as RunRecord['params'],
    paramsVersion: String(item.paramsVersion ?? ''),
    counters: {
      total: n('total'),
      done: n('done'),
      failed: n('failed'),
      cancelled: n('cancelled'),
      parked: n('parked'),
      interrupted: n('interrupted'),
      retried: n('retried'),
    },
    breaker: item.breaker as RunRecord['breaker'],
    reason: item.reason as string | undefined,
    executionArn: item.executionArn as string | undefined,
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
  };
}

export function toTileRecord(item: Record<string, unknown>): TileRecord {
  return {
    runId: String(item.runId),
    tileId: String(item.tileId),
    z: Number(item.z),
    x: Number(item.x),
    y: Number(item.y),
    state: item.state as TileRecord['state'],
    owner: item.owner as string | undefined,
    leaseUntil: item.leaseUntil === undefined ? undefined : Number(item.leaseUntil),
    attempts: Number(item.attempts ?? 0),
    interruptions: Number(item.interruptions ?? 0),
    output: item.output as TileRecord['output'],
    error: item.error as TileRecord['error'],
    lastError: item.lastError as TileRecord['lastError'],
    durationMs: item.durationMs === undefined ? undefined : Number(item.durationMs),
    updatedAt: item.updatedAt === undefined ? undefined : String(item.updatedAt),
  };
}
