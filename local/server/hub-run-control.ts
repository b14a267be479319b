import { cancelOnHub } from '../hub/cancel-on-hub.js';
import type { LocalHub } from '../hub/local-hub.js';
import { findDebris } from './debris.js';
import { receiveUpload, UPLOAD_LIMITS, type UploadLimits } from './receive-upload.js';
import type { RunControl } from './run-control.js';

/** The local hub as the page's API acts on it: its runner's executions, its pool, its uploads. */
export function hubRunControl(hub: LocalHub, uploadLimits: UploadLimits = UPLOAD_LIMITS): RunControl {
  return {
    target: { kind: 'local' },
    ledger: hub.ledger,
    store: hub.store,
    chain: hub.chain,
    async execution(arn) {
      const e = hub.executions.get(arn);
      return e
        ? {
            status: e.status,
            state: e.states.at(-1),
            // The path grows by three states per progress check: keep the recent part.
            transitions: e.states.length,
            states: e.states.slice(-12),
            historyEvents: e.historyEvents,
            error: e.error,
            cause: e.cause,
          }
        : undefined;
    },
    async waitForEnd(arn, ms) {
      if (hub.executions.get(arn)?.status !== 'RUNNING') return;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        hub.executions.wait(arn),
        new Promise((resolve) => {
          timer = setTimeout(resolve, ms);
        }),
      ]).finally(() => clearTimeout(timer));
    },
    cancel: (runId) => cancelOnHub(hub, runId),
    redrive: (runId) => hub.redrive(runId),
    // This hub's workers' scratch, this run's files: another stack's or run's are not this run's.
    debris: (runId) => findDebris(hub.pool.pids(), hub.pool.scratchDirs(), process.pid, runId),
    workers: () => hub.pool.activity(),
    capacity: () => hub.capacity.view(),
    queues: async () => ({ work: await hub.queue.depth(), deadLetters: await hub.deadLetters.depth() }),
    receiveUpload: (req, res, url) => receiveUpload(hub, req, res, url, uploadLimits),
  };
}
