import type { RunStatus } from '../../model/run.js';
import type { Ledger, LedgerRequest } from '../ledger.js';
import type { Transition } from './transitions.js';

/** What a transition that applied left behind: the metatile's attempts, when the store read them back. */
export interface Applied {
  readonly attempts?: number;
}

/**
 * Where metatile records live, and how a transition is executed on them: DynamoDB
 * (dynamo/metatile-store.ts) or memory (the unit tests' ledger). The operations on top
 * (owner-operations.ts, batch-operations.ts) are written once, over this.
 */
export interface MetatileStore {
  readonly now: () => number;
  /** The transition and its counts, all or nothing, when its guard holds; undefined when it did not. */
  apply(
    runId: string,
    metatileId: string,
    transition: Transition,
    request?: LedgerRequest,
  ): Promise<Applied | undefined>;
  getMetatile: Ledger['getMetatile'];
  listMetatiles: Ledger['listMetatiles'];
  /** Claims whose lease ran out before `now`, in every run (the reaper's read). */
  expiredLeases(now: number): AsyncIterable<{ readonly runId: string; readonly metatileId: string }>;
  runStatus(runId: string): Promise<RunStatus | undefined>;
}
