import type {
  OperationName,
  RunRecord,
  RunStatus,
  SourceRef,
  TileError,
  TileOutput,
  TileRecord,
} from '../model/run.js';
import type { TileTask } from '../model/tile.js';

export interface NewRun {
  readonly runId: string;
  readonly status: RunStatus;
  readonly source: SourceRef;
  readonly operation: OperationName;
  readonly params: Readonly<Record<string, unknown>>;
  readonly paramsVersion: string;
  readonly total: number;
  readonly executionArn?: string;
  readonly reason?: string;
}

export interface RunPatch {
  readonly status?: RunStatus;
  readonly total?: number;
  readonly reason?: string;
  readonly executionArn?: string;
  readonly breaker?: 'CLOSED' | 'OPEN';
}

/** What a claim attempt found. Only `claimed` means the caller now holds the lease. */
export type ClaimResult =
  | { readonly outcome: 'claimed'; readonly attempts: number }
  | { readonly outcome: 'done' | 'failed' | 'parked' | 'cancelled' }
  | { readonly outcome: 'held'; readonly leaseUntil: number };

/** How a claimed sub-tile is given back without a marker. */
export type Release =
  /** Back to the queue: retryable failure, lost time, or a spot interruption. */
  | { readonly state: 'QUEUED'; readonly error?: TileError; readonly interrupted?: boolean }
  /** Stopped deliberately (run cancelled, breaker open, deadline): kept for a re-drive. */
  | { readonly state: 'PARKED' | 'CANCELLED'; readonly error: TileError };

/**
 * The run ledger: runs, their sub-tiles' states and exact counters. Claims are leases.
 * Domain code depends on this interface; only the adapter talks to DynamoDB.
 */
export interface Ledger {
  /** Creates the run unless it exists (a duplicate upload event); never overwrites. */
  createRun(run: NewRun): Promise<'created' | 'exists'>;
  getRun(runId: string): Promise<RunRecord | undefined>;
  /** Applies the patch; when `onlyFrom` is given, only if the run is in one of those states. */
  updateRun(runId: string, patch: RunPatch, onlyFrom?: readonly RunStatus[]): Promise<boolean>;
  /** Zeroes the breaker's evidence (retried attempts) for a re-drive. */
  resetBreaker(runId: string): Promise<void>;
  listRuns(limit?: number): Promise<RunRecord[]>;

  /** The recorded state of these sub-tiles (one batched read); absent ones were never claimed. */
  getTiles(runId: string, tileIds: readonly string[]): Promise<Map<string, TileRecord>>;
  /** Every sub-tile record of a run (one Query per run, paged). */
  listTiles(runId: string): AsyncIterable<TileRecord>;

  claimTile(runId: string, tile: TileTask, owner: string, leaseMs: number): Promise<ClaimResult>;
  /** Extends our lease; throws LeaseLostError when it is no longer ours. */
  extendLease(runId: string, tileId: string, owner: string, leaseMs: number): Promise<void>;
  /** Gives a claim back. A lease that is no longer ours is left alone. */
  releaseTile(runId: string, tileId: string, owner: string, release: Release): Promise<void>;
  /** The completion marker, written only after the output object is durable; counts it atomically. */
  markDone(
    runId: string,
    tileId: string,
    owner: string,
    output: TileOutput,
    durationMs: number,
  ): Promise<void>;
  /** A terminal data failure: recorded and counted, never retried. */
  markFailed(runId: string, tileId: string, owner: string, error: TileError): Promise<void>;
  /** Records queued sub-tiles that were dropped without processing, so a re-drive can find them. */
  parkTiles(
    runId: string,
    tiles: readonly TileTask[],
    state: 'PARKED' | 'CANCELLED',
    error: TileError,
  ): Promise<void>;
  /**
   * An operator's re-drive: parked, cancelled and failed sub-tiles go back to QUEUED with a
   * fresh budget (the operator removed the cause); returns the tiles moved.
   */
  unparkTiles(runId: string): Promise<TileTask[]>;
  /** Frees leases that expired before `now` (the reaper; a backstop only). Returns how many. */
  reapExpiredLeases(runId: string, now: number): Promise<number>;
}
