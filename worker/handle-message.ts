import { LeaseLostError } from '../lib/ledger/errors.js';
import type { Ledger, Release } from '../lib/ledger/ledger.js';
import type { Logger } from '../lib/log/logger.js';
import { parseTileMessage } from '../lib/model/message.js';
import {
  type RunRecord,
  STOPPED_RUN_STATUSES,
  type TileError,
  type TileOutput,
  type TileRecord,
} from '../lib/model/run.js';
import type { TileTask } from '../lib/model/tile.js';
import { ProcessGroupSurvivedError } from '../lib/process/errors.js';
import type { ReceivedMessage, WorkQueue } from '../lib/queue/work-queue.js';
import { DeadlineExceededError, InterruptedError, RunStoppedError, TileDataError } from './errors.js';
import { startHeartbeat } from './heartbeat.js';
import { watchRun } from './run-watch.js';
import type { StopController } from './stop-controller.js';

export interface HandleMessageDeps {
  readonly ledger: Ledger;
  readonly queue: WorkQueue;
  readonly log: Logger;
  readonly stop: StopController;
  readonly workerId: string;
  readonly leaseMs: number;
  readonly runWatchMs: number;
  readonly retryDelaySeconds: number;
  readonly processTile: (run: RunRecord, tile: TileTask, signal: AbortSignal) => Promise<TileOutput>;
}

/** What became of one message; the worker loop only needs to know whether to keep going. */
export type MessageOutcome = 'completed' | 'malformed' | 'dropped' | 'retry-later' | 'interrupted';

const errorOf = (error: unknown): TileError => ({
  class: error instanceof Error ? error.name : 'UnknownError',
  message: (error instanceof Error ? error.message : String(error)).slice(0, 2_000),
});

/**
 * One message, start to end: skip what is marked, then per sub-tile claim → run → upload →
 * marker, with every exit path releasing the claim; then dispose of the message as the
 * outcome requires (delete, requeue as a fresh copy, or leave for a later retry).
 */
export async function handleMessage(
  deps: HandleMessageDeps,
  message: ReceivedMessage,
): Promise<MessageOutcome> {
  const { ledger, queue, log } = deps;
  const parsed = parseTileMessage(message.body);
  if (!parsed.ok) {
    // Nothing can ever process it; keep it, with the reason, where an operator will look.
    log.error(
      { messageId: message.id, reason: parsed.reason },
      'malformed message moved to the dead-letter queue',
    );
    await queue.deadLetter(message, parsed.reason);
    return 'malformed';
  }
  const { runId, tiles } = parsed.message;
  const run = await ledger.getRun(runId);
  if (!run) {
    log.error({ messageId: message.id, runId }, 'message for an unknown run moved to the dead-letter queue');
    await queue.deadLetter(message, `unknown run ${runId}`);
    return 'malformed';
  }
  if (STOPPED_RUN_STATUSES.includes(run.status)) {
    await park(deps, run, tiles, new RunStoppedError(runId, run.status, run.reason));
    await queue.delete(message);
    return 'dropped';
  }

  // Skip what is already marked: one batched read, no tool work, no S3 HEAD.
  const known = await ledger.getTiles(
    runId,
    tiles.map((t) => t.id),
  );
  const pending = tiles.filter((t) => {
    const state = known.get(t.id)?.state;
    return state !== 'DONE' && state !== 'FAILED' && state !== 'PARKED' && state !== 'CANCELLED';
  });
  if (pending.length < tiles.length)
    log.info({ runId, skipped: tiles.length - pending.length }, 'skipping marked sub-tiles');
  log.info(
    { runId, messageId: message.id, tiles: tiles.length, remaining: pending.length },
    `message taken: ${pending.length} of its ${tiles.length} sub-tiles remain`,
  );

  if (
    redeliveredAfterCrash(
      message,
      pending.map((t) => known.get(t.id)),
    )
  ) {
    // Its last worker died holding it (SIGKILL, a vanished instance): that is an interruption,
    // not a failure, so it must not spend the message's receive budget. A fresh copy resets it.
    log.warn(
      { runId, messageId: message.id, receiveCount: message.receiveCount },
      'redelivered after a crash; requeued fresh',
    );
    await queue.requeue(message);
    return 'interrupted';
  }

  const heartbeat = startHeartbeat({ queue, ledger, log }, message, runId, deps.workerId, deps.leaseMs);
  const watch = watchRun(ledger, runId, deps.runWatchMs);
  let disposition: 'delete' | 'requeue' | 'retry' = 'delete';
  let stoppedBy: RunStoppedError | undefined;
  let retryAfterSeconds = deps.retryDelaySeconds;
  let leftForRetry = 0;
  try {
    for (const [index, tile] of pending.entries()) {
      if (deps.stop.requested.aborted) {
        disposition = 'requeue'; // not started: back to the queue at once
        leftForRetry = pending.length - index;
        break;
      }
      if (watch.signal.aborted) {
        stoppedBy = watch.signal.reason as RunStoppedError;
        await park(deps, run, pending.slice(index), stoppedBy);
        break;
      }
      const claim = await ledger.claimTile(runId, tile, deps.workerId, deps.leaseMs);
      if (claim.outcome === 'held') {
        // Another worker holds a live lease (a redelivery): look again once it expires.
        disposition = 'retry';
        retryAfterSeconds = Math.max(1, Math.ceil((claim.leaseUntil - Date.now()) / 1000) + 1);
        continue;
      }
      if (claim.outcome !== 'claimed') continue;

      const tileLog = log.child({
        runId,
        tileId: tile.id,
        z: tile.z,
        x: tile.x,
        y: tile.y,
        attempt: claim.attempts,
      });
      const leaseLost = heartbeat.setTile(tile.id);
      const signal = AbortSignal.any([deps.stop.cutoff, watch.signal, leaseLost]);
      const started = Date.now();
      // Default: give the claim back. Only a marker (done or failed) or a lost lease clears it.
      let release: Release | undefined = { state: 'QUEUED' };
      try {
        const output = await deps.processTile(run, tile, signal);
        await ledger.markDone(runId, tile.id, deps.workerId, output, Date.now() - started);
        release = undefined;
        tileLog.info({ durationMs: Date.now() - started, bytes: output.bytes }, 'sub-tile done');
      } catch (error) {
        if (error instanceof ProcessGroupSurvivedError) {
          // Stop-the-worker case (see worker-loop.ts): the group may still write, so the claim
          // stays until its lease runs out and the message is left to come back after it.
          release = undefined;
          throw error;
        }
        const tileError = errorOf(error);
        if (error instanceof TileDataError) {
          await ledger.markFailed(runId, tile.id, deps.workerId, tileError);
          release = undefined;
          tileLog.warn({ error: tileError }, 'sub-tile failed on bad data; not retried');
        } else if (error instanceof InterruptedError) {
          release = { state: 'QUEUED', error: tileError, interrupted: true };
          disposition = 'requeue';
          leftForRetry = pending.length - index;
          tileLog.warn({ error: tileError }, 'sub-tile interrupted; back to the queue');
        } else if (error instanceof RunStoppedError) {
          stoppedBy = error;
          release = { state: error.status === 'CANCELLED' ? 'CANCELLED' : 'PARKED', error: tileError };
          tileLog.warn({ error: tileError }, 'sub-tile stopped with its run');
        } else if (error instanceof DeadlineExceededError) {
          release = { state: 'PARKED', error: tileError };
          tileLog.warn({ error: tileError }, 'sub-tile exceeded its budget; parked for a re-drive');
        } else if (error instanceof LeaseLostError) {
          release = undefined; // not ours any more: someone else has it
          disposition = 'retry';
          tileLog.warn({ error: tileError }, 'lease lost; sub-tile left to its new owner');
        } else {
          release = { state: 'QUEUED', error: tileError };
          disposition = 'retry';
          tileLog.warn({ error: tileError }, 'sub-tile failed; will be retried');
        }
      } finally {
        heartbeat.setTile(undefined);
        if (release) {
          // Bounded by the request timeout; if it fails, the lease expires and the reaper frees it.
          await ledger
            .releaseTile(runId, tile.id, deps.workerId, release)
            .catch((e: unknown) =>
              tileLog.error({ err: e }, 'could not release the claim; the lease will expire'),
            );
        }
      }
      if (disposition === 'requeue') break;
      if (stoppedBy) {
        await park(deps, run, pending.slice(index + 1), stoppedBy);
        break;
      }
    }
  } finally {
    heartbeat.stop();
    watch.stop();
  }

  if (disposition === 'requeue') {
    log.warn(
      { runId, messageId: message.id, remaining: leftForRetry },
      `stopping: ${leftForRetry} sub-tiles of the message left for the retry`,
    );
    // A fresh copy: an interruption must not spend the message's failure budget.
    await queue.requeue(message);
    return 'interrupted';
  }
  if (disposition === 'retry' && !stoppedBy) {
    await queue.setVisibility(message, retryAfterSeconds);
    return 'retry-later';
  }
  await queue.delete(message);
  return stoppedBy ? 'dropped' : 'completed';
}

/** Past this many claims a sub-tile's crashes count against the budget: a message that kills its worker every time must still reach the DLQ. */
export const CRASH_RESET_LIMIT = 10;

function redeliveredAfterCrash(
  message: ReceivedMessage,
  records: readonly (TileRecord | undefined)[],
): boolean {
  if (message.receiveCount < 2) return false;
  const now = Date.now();
  const crashed = records.some((t) => t?.state === 'CLAIMED' && (t.leaseUntil ?? 0) < now);
  const failed = records.some((t) => t?.lastError && t.lastError.class !== 'InterruptedError');
  const attempts = Math.max(0, ...records.map((t) => t?.attempts ?? 0));
  return crashed && !failed && attempts < CRASH_RESET_LIMIT;
}

/** Records sub-tiles dropped without processing, so that a re-drive finds them. */
async function park(
  deps: HandleMessageDeps,
  run: RunRecord,
  tiles: readonly TileTask[],
  why: RunStoppedError,
) {
  if (tiles.length === 0) return;
  const state = why.status === 'CANCELLED' ? 'CANCELLED' : 'PARKED';
  await deps.ledger.parkTiles(run.runId, tiles, state, errorOf(why));
  deps.log.info({ runId: run.runId, tiles: tiles.length, state }, 'queued sub-tiles dropped with their run');
}
