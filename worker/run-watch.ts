import type { Ledger } from '../lib/ledger/ledger.js';
import { STOPPED_RUN_STATUSES } from '../lib/model/run.js';
import { RunStoppedError } from './errors.js';

export interface RunWatch {
  /** Aborted with a RunStoppedError once the run is cancelled, draining (breaker open) or failed. */
  readonly signal: AbortSignal;
  stop(): void;
}

/**
 * Polls the run's status while its work is in flight, so that a cancel in the console (or
 * an open breaker) stops the running tool within one interval. Read errors are ignored: a
 * missed poll only delays the cancel, and the lease and the reaper still bound it.
 */
export function watchRun(ledger: Ledger, runId: string, intervalMs: number): RunWatch {
  const controller = new AbortController();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const poll = async () => {
    try {
      const run = await ledger.getRunHead(runId);
      if (run && STOPPED_RUN_STATUSES.includes(run.status)) {
        controller.abort(new RunStoppedError(runId, run.status, run.reason));
        return;
      }
    } catch {
      // transient: try again next interval
    }
    if (!stopped) timer = setTimeout(poll, intervalMs);
  };
  timer = setTimeout(poll, intervalMs);
  return {
    signal: controller.signal,
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
