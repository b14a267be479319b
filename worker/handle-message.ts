import type { Ledger, Release } from '../lib/ledger/ledger.js';
import type { Logger } from '../lib/log/logger.js';
import { parseTileMessage } from '../lib/model/message.js';
import { type Metatile, metatileOf } from '../lib/model/metatile.js';
import { type RunRecord, STOPPED_RUN_STATUSES, type TileState } from '../lib/model/run.js';
import type { ReceivedMessage, WorkQueue } from '../lib/queue/work-queue.js';
import { redeliveredAfterCrash } from './crash-redelivery.js';
import { RunStoppedError } from './errors.js';
import { startHeartbeat } from './heartbeat.js';
import { type Disposition, errorOf, failurePolicy } from './message-policy.js';
import type { ProcessTiles } from './process-tiles.js';
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
  readonly processTiles: ProcessTiles;
  readonly now?: () => number;
}

/** What became of one message; the worker loop only needs to know whether to keep going. */
export type MessageOutcome = 'completed' | 'malformed' | 'dropped' | 'retry-later' | 'interrupted';

const ACCOUNTED: readonly TileState[] = ['DONE', 'FAILED', 'PARKED', 'CANCELLED'];
const OUTCOME: Record<Disposition, MessageOutcome> = {
  delete: 'completed',
  requeue: 'interrupted',
  retry: 'retry-later',
  leave: 'retry-later',
};

/**
 * One message = one metatile, start to end: skip it if accounted for, claim it, make and upload
 * its tiles, write its one marker; every other exit goes through `failurePolicy` (release,
 * disposition, log). A ProcessGroupSurvivedError is rethrown: the worker must stop.
 */
export async function handleMessage(
  deps: HandleMessageDeps,
  message: ReceivedMessage,
): Promise<MessageOutcome> {
  const { ledger, queue } = deps;
  const now = deps.now ?? Date.now;
  const parsed = parseTileMessage(message.body);
  const run = parsed.ok ? await ledger.getRun(parsed.message.runId) : undefined;
  if (!parsed.ok || !run) {
    // Nothing can ever process it; keep it, with the reason, where an operator will look.
    const reason = parsed.ok ? `unknown run ${parsed.message.runId}` : parsed.reason;
    deps.log.error({ messageId: message.id, reason }, 'message moved to the dead-letter queue');
    await queue.deadLetter(message, reason);
    return 'malformed';
  }
  const metatile = metatileOf(parsed.message.tiles);
  const log = deps.log.child({ runId: run.runId, metatileId: metatile.id, tiles: metatile.tiles.length });
  const dispose = async (disposition: Disposition, outcome = OUTCOME[disposition], delaySeconds?: number) => {
    if (disposition === 'delete') await queue.delete(message);
    else if (disposition === 'requeue') await queue.requeue(message);
    else if (disposition === 'retry')
      await queue.setVisibility(message, delaySeconds ?? deps.retryDelaySeconds);
    return outcome;
  };

  if (STOPPED_RUN_STATUSES.includes(run.status)) {
    const why = new RunStoppedError(run.runId, run.status, run.reason);
    const state = run.status === 'CANCELLED' ? 'CANCELLED' : 'PARKED';
    await ledger.park(run.runId, [metatile], state, errorOf(why));
    log.info({ state }, 'metatile dropped with its run');
    return dispose('delete', 'dropped');
  }
  // Skip what is accounted for: one read, no tool work, no S3 HEAD.
  const record = await ledger.getMetatile(run.runId, metatile.id);
  if (record && ACCOUNTED.includes(record.state)) {
    log.info({ state: record.state }, 'metatile already accounted for; skipped');
    return dispose('delete');
  }
  if (deps.stop.requested.aborted || redeliveredAfterCrash(message, record, now())) {
    log.warn(
      { receiveCount: message.receiveCount, left: metatile.tiles.length },
      'metatile back to the queue, fresh',
    );
    return dispose('requeue');
  }
  const claim = await ledger.claim(run.runId, metatile, deps.workerId, deps.leaseMs);
  if (claim.outcome === 'held') {
    // Another worker holds a live lease (a redelivery): look again once it expires.
    return dispose('retry', undefined, Math.max(1, Math.ceil((claim.leaseUntil - now()) / 1000) + 1));
  }
  if (claim.outcome !== 'claimed') return dispose('delete');
  log.info({ attempt: claim.attempts }, 'metatile claimed');
  return dispose(await attempt(deps, run, metatile, message, log));
}

/** The claimed metatile: tool, upload, marker; the release in `finally`, whatever happened. */
async function attempt(
  deps: HandleMessageDeps,
  run: RunRecord,
  metatile: Metatile,
  message: ReceivedMessage,
  log: Logger,
): Promise<Disposition> {
  const now = deps.now ?? Date.now;
  const heartbeat = startHeartbeat(deps, message, run.runId, deps.workerId, deps.leaseMs);
  const watch = watchRun(deps.ledger, run.runId, deps.runWatchMs);
  const signal = AbortSignal.any([deps.stop.cutoff, watch.signal, heartbeat.hold(metatile.id)]);
  const started = now();
  // Until a marker is written, the claim is given back.
  let release: Release | undefined = { state: 'QUEUED' };
  try {
    const outputs = await deps.processTiles(run, metatile.tiles, signal);
    await deps.ledger.markDone(run.runId, metatile, deps.workerId, outputs, now() - started);
    release = undefined;
    log.info({ durationMs: now() - started }, 'metatile done');
    return 'delete';
  } catch (error) {
    const policy = failurePolicy(error);
    release = policy.release;
    log[policy.level]({ error: errorOf(error), left: metatile.tiles.length }, policy.log);
    if (policy.fatal) throw error;
    if (!policy.markFailed) return policy.disposition;
    try {
      await deps.ledger.markFailed(run.runId, metatile, deps.workerId, errorOf(error));
      return policy.disposition;
    } catch (markError) {
      release = failurePolicy(markError).release;
      log.error({ err: markError }, 'could not record the failure; the metatile will be retried');
      return 'retry';
    }
  } finally {
    heartbeat.stop();
    watch.stop();
    // Bounded by the request timeout; if it fails, the lease expires and the reaper frees it.
    if (release) {
      await deps.ledger
        .release(run.runId, metatile, deps.workerId, release)
        .catch((e: unknown) => log.error({ err: e }, 'could not release the claim; the lease will expire'));
    }
  }
}
