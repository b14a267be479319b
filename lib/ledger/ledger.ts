import type { Metatile } from '../model/metatile.js';
import type {
  MetatileRecord,
  OperationName,
  RunHead,
  RunRecord,
  RunStatus,
  SourceRef,
  TileError,
  TileOutput,
  TileState,
} from '../model/run.js';

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
  /** The source's own date, when its header records one (the STAC items' `datetime`). */
  readonly sourceDatetime?: string;
  /** What the run's user should know about its result (a CRS planned without its grid: docs/crs.md). */
  readonly warnings?: readonly string[];
}

export interface RunPatch {
  readonly status?: RunStatus;
  readonly total?: number;
  readonly reason?: string;
  readonly executionArn?: string;
  readonly breaker?: 'CLOSED' | 'OPEN';
}

/**
 * A claim held: what only its owner may do with the metatile. The run, the owner and the lease
 * ride along, so no caller passes them again (or someone else's).
 */
export interface ClaimHandle {
  readonly runId: string;
  readonly metatile: Metatile;
  readonly owner: string;
  readonly leaseMs: number;
  /** Extends the lease by `leaseMs`; throws LeaseLostError when the claim is no longer ours. */
  extend(request?: LedgerRequest): Promise<void>;
  /**
   * The markers of all the metatile's tiles, in one write with its counter shard: only after
   * every output is durable. Throws LeaseLostError when the claim is no longer ours.
   */
  markDone(outputs: MetatileOutputs, durationMs: number, request?: LedgerRequest): Promise<void>;
  /** A terminal data failure: recorded and counted, never retried. LeaseLostError as markDone. */
  markFailed(error: TileError): Promise<void>;
  /** Gives the claim back without a marker. A claim that is no longer ours is left alone. */
  release(release: Release): Promise<void>;
}

/** What a claim attempt found. Only `claimed` means the caller now holds the lease. */
export type ClaimResult =
  | { readonly outcome: 'claimed'; readonly attempts: number; readonly claim: ClaimHandle }
  | { readonly outcome: 'done' | 'failed' | 'parked' | 'cancelled' }
  | { readonly outcome: 'held'; readonly leaseUntil: number };

/** How a claimed metatile is given back without a marker. */
export type Release =
  /** Back to the queue: retryable failure, lost time, or a spot interruption. */
  | { readonly state: 'QUEUED'; readonly error?: TileError; readonly interrupted?: boolean }
  /** Stopped deliberately (run cancelled, breaker open, deadline): kept for a re-drive. */
  | { readonly state: 'PARKED' | 'CANCELLED'; readonly error: TileError };

/** The outputs of a metatile's tiles, by tile id: every tile of the metatile, each durable. */
export type MetatileOutputs = ReadonlyMap<string, TileOutput>;

/** Per request: a cancel abandons the request in flight (its socket closed) and its retries. */
export interface LedgerRequest {
  readonly signal?: AbortSignal;
}

/**
 * The run ledger: runs, their metatiles' claims and markers, and exact counters (in sub-tiles).
 * The metatile is the unit of claim and marker; `listTiles` (in `tile-records.ts`) gives the
 * per-tile view. Domain code depends on this interface; only the adapter talks to DynamoDB.
 */
export interface Ledger {
  /** Creates the run unless it exists (a duplicate upload event); never overwrites. */
  createRun(run: NewRun): Promise<'created' | 'exists'>;
  /** The run with its counters summed over their shards. */
  getRun(runId: string, request?: LedgerRequest): Promise<RunRecord | undefined>;
  /**
   * The run without its counters, from one item: the worker's read for every message and every
   * run-watch poll (getRun reads the META item and every counter shard).
   */
  getRunHead(runId: string, request?: LedgerRequest): Promise<RunHead | undefined>;
  /** Applies the patch; when `onlyFrom` is given, only if the run is in one of those states. */
  updateRun(runId: string, patch: RunPatch, onlyFrom?: readonly RunStatus[]): Promise<boolean>;
  /** Zeroes the breaker's evidence (retried attempts) for a re-drive. */
  resetBreaker(runId: string): Promise<void>;
  listRuns(limit?: number): Promise<RunRecord[]>;

  /** A metatile's record (one consistent read); undefined when it was never touched. */
  getMetatile(
    runId: string,
    metatileId: string,
    request?: LedgerRequest,
  ): Promise<MetatileRecord | undefined>;
  /** The records of these metatiles (batched reads); absent ones were never touched. */
  getMetatiles(runId: string, metatileIds: readonly string[]): Promise<Map<string, MetatileRecord>>;
  /**
   * Every metatile record of a run, in no particular order (one Query per run, paged; with
   * `parallel`, a run that does not fit one page is read by up to sixteen queries side by side:
   * a run's finalize reads a million sub-tiles' markers);
   * with `states`, only the metatiles in one of them.
   */
  listMetatiles(
    runId: string,
    options?: { readonly parallel?: boolean; readonly states?: readonly TileState[] },
  ): AsyncIterable<MetatileRecord>;

  /** Conditional: not done, and unclaimed or its lease expired. One write. */
  claim(
    runId: string,
    metatile: Metatile,
    owner: string,
    leaseMs: number,
    request?: LedgerRequest,
  ): Promise<ClaimResult>;

  /**
   * Records metatiles dropped without processing (a stopped run), so a re-drive finds them:
   * absent or queued ones, and ones CLAIMED by a worker whose lease expired (it died).
   */
  park(
    runId: string,
    metatiles: readonly Metatile[],
    state: 'PARKED' | 'CANCELLED',
    error: TileError,
  ): Promise<void>;
  /**
   * An operator's re-drive: parked, cancelled and failed metatiles, and claims whose lease
   * expired, go back to QUEUED with a fresh budget; returns the metatiles to re-send. With
   * `only`, just the stopped metatiles it accepts (no claims).
   */
  unpark(runId: string, only?: (record: MetatileRecord) => boolean): Promise<Metatile[]>;
  /**
   * Frees leases that expired before `now`, in every run whatever its state (the reaper; a
   * backstop only): back to QUEUED in a running run, parked or cancelled in a stopped one.
   */
  reapExpiredLeases(now: number): Promise<number>;
}
