import { LeaseLostError } from '../lib/ledger/errors.js';
import type { Ledger } from '../lib/ledger/ledger.js';
import type { Logger } from '../lib/log/logger.js';
import type { ReceivedMessage, WorkQueue } from '../lib/queue/work-queue.js';

export interface Heartbeat {
  /**
   * Sets the sub-tile whose lease is extended along with the message (undefined between
   * sub-tiles); returns a signal aborted with a LeaseLostError if that lease is lost.
   */
  setTile(tileId: string | undefined): AbortSignal;
  stop(): void;
}

export interface HeartbeatDeps {
  readonly queue: WorkQueue;
  readonly ledger: Ledger;
  readonly log: Logger;
}

/**
 * Extends the message's visibility and the current sub-tile's lease together, every third
 * of the lease, so neither lapses while a long sub-tile runs and both lapse soon after a
 * worker dies.
 */
export function startHeartbeat(
  deps: HeartbeatDeps,
  message: ReceivedMessage,
  runId: string,
  owner: string,
  leaseMs: number,
): Heartbeat {
  let leaseLost = new AbortController();
  let tileId: string | undefined;
  const beat = async () => {
    const current = tileId;
    const results = await Promise.allSettled([
      deps.queue.setVisibility(message, Math.ceil(leaseMs / 1000)),
      current ? deps.ledger.extendLease(runId, current, owner, leaseMs) : Promise.resolve(),
    ]);
    for (const r of results) {
      if (r.status === 'fulfilled') continue;
      if (r.reason instanceof LeaseLostError) {
        if (current === tileId) leaseLost.abort(r.reason);
      } else deps.log.warn({ err: r.reason, runId, tileId: current }, 'heartbeat failed; will retry');
    }
  };
  const timer = setInterval(() => void beat(), Math.max(1_000, Math.floor(leaseMs / 3)));
  timer.unref();
  return {
    setTile(next) {
      tileId = next;
      leaseLost = new AbortController();
      return leaseLost.signal;
    },
    stop() {
      clearInterval(timer);
    },
  };
}
