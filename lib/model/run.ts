import type { PyramidLinks } from './metatile.js';
import type { TileTask } from './tile.js';

export const RUN_STATUSES = ['SPLITTING', 'RUNNING', 'DRAINING', 'CANCELLED', 'SUCCEEDED', 'FAILED'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** A run in one of these has ended: nothing more will happen to it unless it is re-driven. */
export const ENDED_RUN_STATUSES: readonly RunStatus[] = ['CANCELLED', 'SUCCEEDED', 'FAILED'];

/** Runs in these states take no more work: in-flight sub-tiles stop, queued ones are parked. */
export const STOPPED_RUN_STATUSES: readonly RunStatus[] = ['DRAINING', 'CANCELLED', 'FAILED'];

export const TILE_STATES = ['QUEUED', 'CLAIMED', 'DONE', 'FAILED', 'PARKED', 'CANCELLED'] as const;
export type TileState = (typeof TILE_STATES)[number];

/** The names a run may record as its operation (a job's `operation`); the worker maps them to code. */
export const OPERATION_NAMES = ['raster-xyz', 'pointcloud-dtm'] as const;
export type OperationName = (typeof OPERATION_NAMES)[number];

export interface SourceRef {
  readonly bucket: string;
  readonly key: string;
  /** The upload's version id on a versioned bucket, else its ETag: the run's identity. */
  readonly version: string;
  /**
   * The upload's ETag (unquoted), from its S3 event: every read of the source is pinned to it
   * (lib/source/source-pin.ts). Absent on runs recorded before pinning.
   */
  readonly etag?: string;
}

export interface RunCounters {
  readonly total: number;
  readonly done: number;
  readonly failed: number;
  readonly cancelled: number;
  readonly parked: number;
  readonly interrupted: number;
  /** Attempts that failed and went back for a retry: the breaker's evidence with `failed`. */
  readonly retried: number;
}

export interface RunRecord {
  readonly runId: string;
  readonly status: RunStatus;
  readonly source: SourceRef;
  readonly operation: OperationName;
  /** Validated operation parameters (zoom, resampling, …). */
  readonly params: Readonly<Record<string, unknown>>;
  readonly paramsVersion: string;
  readonly counters: RunCounters;
  readonly breaker?: 'CLOSED' | 'OPEN';
  readonly reason?: string;
  readonly executionArn?: string;
  /** The source's own date, when its header records one (TIFF DateTime, LAS creation day). */
  readonly sourceDatetime?: string;
  /** What the run's user should know about its result (a CRS planned without its grid: docs/crs.md). */
  readonly warnings?: readonly string[];
  readonly createdAt: string;
  readonly updatedAt: string;
}

/**
 * A run without its counters: what a worker needs (source, operation, parameters, status) in one
 * item's read, where the counters are summed over a dozen shards (lib/ledger/dynamo/runs.ts).
 */
export type RunHead = Omit<RunRecord, 'counters'>;

export interface TileOutput {
  readonly key: string;
  readonly etag: string;
  readonly bytes: number;
}

export interface TileError {
  /** The error's class name: the contract with retry policies and the run summary. */
  readonly class: string;
  readonly message: string;
}

/** One metatile's ledger item: the claim (a lease) and, once done, the markers of all its tiles. */
export interface MetatileRecord extends PyramidLinks {
  readonly runId: string;
  readonly metatileId: string;
  readonly tiles: readonly TileTask[];
  /** A collection run's members under the tiles (lib/model/metatile.ts), kept for a re-send. */
  readonly members?: readonly number[];
  readonly state: TileState;
  readonly owner?: string;
  readonly leaseUntil?: number;
  readonly attempts: number;
  readonly interruptions: number;
  /** Each tile's durable output, by tile id: present once the metatile is DONE. */
  readonly outputs?: Readonly<Record<string, TileOutput>>;
  /** The owner whose marker (done or failed) ended it. */
  readonly doneBy?: string;
  readonly error?: TileError;
  /** Why the last attempt gave the metatile back (a retryable failure or an interruption). */
  readonly lastError?: TileError;
  readonly durationMs?: number;
  /** When the record last changed (for a DONE metatile: when its marker was written). */
  readonly updatedAt?: string;
}

/**
 * A claim whose lease ran out: its worker died or stalled, so the metatile is stranded until
 * someone takes it back (a redelivery, an unpark, the reaper). A claim without a lease is one.
 */
export function isExpiredClaim(
  record: Pick<MetatileRecord, 'state' | 'leaseUntil'> | undefined,
  now: number,
): boolean {
  return record?.state === 'CLAIMED' && (record.leaseUntil ?? 0) < now;
}

/** One sub-tile as the ledger sees it: its metatile's state, and its own output once marked. */
export interface TileRecord {
  readonly runId: string;
  readonly tileId: string;
  readonly metatileId: string;
  readonly z: number;
  readonly x: number;
  readonly y: number;
  readonly state: TileState;
  readonly owner?: string;
  readonly leaseUntil?: number;
  readonly attempts: number;
  readonly interruptions: number;
  readonly output?: TileOutput;
  readonly error?: TileError;
  /** Why the last attempt gave the sub-tile back (a retryable failure or an interruption). */
  readonly lastError?: TileError;
  readonly durationMs?: number;
  /** Its metatile's `updatedAt`. */
  readonly updatedAt?: string;
}
