import { InterruptedError } from './errors.js';

export type StopReason = 'SIGTERM' | 'SIGINT';

/**
 * The worker's reaction to a stop request (spot reclaim = SIGTERM, Ctrl-C = SIGINT).
 * `requested` fires at once: take no new work. `cutoff` fires when in-flight work can no
 * longer finish inside the grace period and must be cancelled cleanly; the reserve keeps
 * time for the cleanup itself (process-group grace, releasing the claim, requeueing).
 */
export interface StopController {
  readonly requested: AbortSignal;
  readonly cutoff: AbortSignal;
  /**
   * Fires on SIGINT (or a second signal): everything is cut now, a long poll included. Never
   * on a SIGTERM alone, even past the cutoff: a poll ends by itself inside the grace.
   */
  readonly interrupted: AbortSignal;
  readonly reason: StopReason | undefined;
  request(reason: StopReason): void;
  dispose(): void;
}

export interface StopOptions {
  readonly graceMs: number;
  readonly reserveMs: number;
}

export function createStopController(options: StopOptions): StopController {
  const requested = new AbortController();
  const cutoff = new AbortController();
  const interrupted = new AbortController();
  let reason: StopReason | undefined;
  let timer: NodeJS.Timeout | undefined;
  const cut = (why: string) => cutoff.abort(new InterruptedError(why));

  return {
    requested: requested.signal,
    cutoff: cutoff.signal,
    interrupted: interrupted.signal,
    get reason() {
      return reason;
    },
    request(next) {
      if (reason && next === 'SIGTERM') return;
      if (!reason) {
        reason = next;
        requested.abort(new InterruptedError(`stop requested by ${next}`));
      }
      if (next === 'SIGINT' || reason !== next) {
        // Ctrl-C (or a second signal): stop in-flight work now, cleanly.
        cut(`${next}: cancelling in-flight work now`);
        interrupted.abort(cutoff.signal.reason);
        return;
      }
      const budget = Math.max(0, options.graceMs - options.reserveMs);
      timer = setTimeout(
        () => cut(`${next}: in-flight work did not finish within ${budget} ms of the stop grace`),
        budget,
      );
      timer.unref();
    },
    dispose() {
      if (timer) clearTimeout(timer);
    },
  };
}
