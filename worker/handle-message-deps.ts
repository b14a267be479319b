import type { Ledger } from '../lib/ledger/ledger.js';
import type { Logger } from '../lib/log/logger.js';
import type { WorkQueue } from '../lib/queue/work-queue.js';
import type { ObjectStore } from '../lib/store/object-store.js';
import type { ProcessTiles } from './process-tiles.js';
import type { StopController } from './stop-controller.js';

/** What handling a message needs (handle-message.ts, attempt-metatile.ts): built once per worker. */
export interface HandleMessageDeps {
  readonly ledger: Ledger;
  readonly queue: WorkQueue;
  /** A pyramid's manifest: where a finished metatile finds its parent's lines. */
  readonly store: ObjectStore;
  readonly log: Logger;
  readonly stop: StopController;
  readonly workerId: string;
  readonly leaseMs: number;
  readonly runWatchMs: number;
  readonly retryDelaySeconds: number;
  readonly processTiles: ProcessTiles;
  readonly now?: () => number;
}
