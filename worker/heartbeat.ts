import { LeaseLostError } from '../lib/ledger/errors.js';
import type { ClaimHandle } from '../lib/ledger/ledger.js';
import type { Logger } from '../lib/log/logger.js';
import type { ReceivedMessage, WorkQueue } from '../lib/queue/work-queue.js';

export interface Heartbeat {
  /** Aborted with the LeaseLostError when the claim is found no longer ours. */
  readonly leaseLost: AbortSignal;
  stop(): void;
}

export interface HeartbeatDeps {
  readonly queue: WorkQueue;
  readonly log: Logger;
}

/**
 * Extends the message's visibility and the claim's lease together, every third of the lease
 * (one ChangeMessageVisibility and one UpdateItem a beat), so neither lapses while a long
 * metatile runs and both lapse soon after a worker dies.
 */
export function startHeartbeat(deps: HeartbeatDeps, message: ReceivedMessage, claim: ClaimHandle): Heartbeat {
  const leaseLost = new AbortController();
  const beat = async () => {
    const results = await Promise.allSettled([
      deps.queue.setVisibility(message, Math.ceil(claim.leaseMs / 1000)),
      claim.extend(),
    ]);
    for (const r of results) {
      if (r.status === 'fulfilled') continue;
      if (r.reason instanceof LeaseLostError) leaseLost.abort(r.reason);
      else
        deps.log.warn(
          { err: r.reason, runId: claim.runId, metatileId: claim.metatile.id },
          'heartbeat failed; will retry',
        );
    }
  };
  const timer = setInterval(() => void beat(), Math.max(1_000, Math.floor(claim.leaseMs / 3)));
  timer.unref();
  return {
    leaseLost: leaseLost.signal,
    stop() {
      clearInterval(timer);
    },
  };
}
