import { setMaxListeners } from 'node:events';
import type { ClaimHandle, Release } from '../lib/ledger/ledger.js';
import type { Logger } from '../lib/log/logger.js';
import { markPhase } from '../lib/log/phase-marks.js';
import { MAX_TILES_PER_MESSAGE } from '../lib/model/metatile.js';
import type { RunHead } from '../lib/model/run.js';
import type { ReceivedMessage } from '../lib/queue/work-queue.js';
import type { HandleMessageDeps } from './handle-message-deps.js';
import type { Handoff } from './handoff.js';
import { startHeartbeat } from './heartbeat.js';
import { type Disposition, errorOf, failurePolicy } from './message-policy.js';
import { watchRun } from './run-watch.js';

/**
 * The claimed metatile: tool, upload, marker; the release in `finally`, whatever happened. The
 * uploads wait for the previous metatile's marker and overlap the next one's tool (handoff.ts);
 * the heartbeat, the run watch and the stop cutoff cover this metatile until its own end.
 */
export async function attemptMetatile(
  deps: HandleMessageDeps,
  run: RunHead,
  claim: ClaimHandle,
  message: ReceivedMessage,
  log: Logger,
  handoff: Handoff,
): Promise<Disposition> {
  const now = deps.now ?? Date.now;
  const { metatile } = claim;
  const heartbeat = startHeartbeat(deps, message, claim);
  const watch = watchRun(deps.ledger, run.runId, deps.runWatchMs);
  const signal = AbortSignal.any([deps.stop.cutoff, watch.signal, heartbeat.leaseLost]);
  // Every request of the metatile listens to it: its uploads go out all at once (16 for a 4×4
  // block), past Node's default of 10 listeners, which would print a leak warning per metatile.
  setMaxListeners(4 * MAX_TILES_PER_MESSAGE, signal);
  const started = now();
  // Until a marker is written, the claim is given back.
  let release: Release | undefined = { state: 'QUEUED' };
  try {
    // Phases, for the bench's profile: tool, wait for the previous marker, uploads + marker.
    let toolMs = 0;
    let waitMs = 0;
    const outputs = await deps.processTiles(run, metatile, signal, {
      beforeUpload: async () => {
        toolMs = now() - started;
        await handoff.toolDone(signal);
        waitMs = now() - started - toolMs;
      },
    });
    // Outputs durable: the marker is written even if the run was cancelled meanwhile (the work is
    // done), and abandoned only at the stop cutoff, like the uploads before it: an interruption,
    // not a failure (if it landed anyway, the release below finds the metatile no longer ours).
    await claim.markDone(outputs, now() - started, { signal: deps.stop.cutoff }).catch((error: unknown) => {
      throw deps.stop.cutoff.aborted ? deps.stop.cutoff.reason : error;
    });
    release = undefined;
    const durationMs = now() - started;
    log.info({ durationMs, toolMs, waitMs, uploadMs: durationMs - toolMs - waitMs }, 'metatile done');
    markPhase('worker: metatile done');
    return 'delete';
  } catch (error) {
    const policy = failurePolicy(error);
    release = policy.release;
    log[policy.level]({ error: errorOf(error), left: metatile.tiles.length }, policy.log);
    if (policy.fatal) throw error;
    if (!policy.markFailed) return policy.disposition;
    try {
      await claim.markFailed(errorOf(error));
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
      await claim
        .release(release)
        .catch((e: unknown) => log.error({ err: e }, 'could not release the claim; the lease will expire'));
    }
  }
}
