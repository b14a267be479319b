import { LeaseLostError } from '../lib/ledger/errors.js';
import type { Ledger } from '../lib/ledger/ledger.js';
import type { Logger } from '../lib/log/logger.js';
import type { ReceivedMessage, WorkQueue } from '../lib/queue/work-queue.js';

export interface Heartbeat {
  /**
   * Sets the metatile whose lease is extended along with the message (undefined when none is
   * held); returns a signal aborted with a LeaseLostError if that lease is lost.
   */
  hold(metatileId: string | undefined): AbortSignal;
  stop(): void;
}

export interface HeartbeatDeps {
  readonly queue: WorkQueue;
  readonly ledger: Ledger;
  readonly log: Logger;
}

/**
 * Extends the message's visibility and the metatile's lease together, every third of the lease
 * (one ChangeMessageVisibility and one UpdateItem a beat), so neither lapses while a long
 * metatile runs and both lapse soon after a worker dies.
 */
export function startHeartbeat(
  deps: HeartbeatDeps,
  message: ReceivedMessage,
  runId: string,
  owner: string,
  leaseMs: number,
): Heartbeat {
  let leaseLost = new AbortController();
  let metatileId: string | undefined;
  const beat = async () => {
    const current = metatileId;
    const results = await Promise.allSettled([
      deps.queue.setVisibility(message, Math.ceil(leaseMs / 1000)),
      current ? deps.ledger.extendLease(runId, current, owner, leaseMs) : Promise.resolve(),
    ]);
    for (const r of results) {
      if (r.status === 'fulfilled') continue;
      if (r.reason instanceof LeaseLostError) {
        if (current === metatileId) leaseLost.abort(r.reason);
      } else deps.log.warn({ err: r.reason, runId, metatileId: current }, 'heartbeat failed; will retry');
    }
  };
  const timer = setInterval(() => void beat(), Math.max(1_000, Math.floor(leaseMs / 3)));
  timer.unref();
  return {
    hold(next) {
      metatileId = next;
      leaseLost = new AbortController();
      return leaseLost.signal;
    },
    stop() {
      clearInterval(timer);
    },
  };
}
