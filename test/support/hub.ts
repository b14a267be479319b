import { type LocalHub, startLocalHub } from '../../local/hub/local-hub.js';
import type { LocalHubOptions } from '../../local/hub/local-hub-options.js';

/** Worker settings for hub tests: quick polling and short leases (AWS defaults are minutes). */
export const HUB_WORKER_ENV: Readonly<Record<string, string>> = {
  GEOHUB_RECEIVE_WAIT_S: '1',
  GEOHUB_LEASE_MS: '6000',
  GEOHUB_KILL_GRACE_MS: '2000',
  GEOHUB_RUN_WATCH_MS: '200',
  GEOHUB_RETRY_DELAY_S: '0',
  GEOHUB_LOG_LEVEL: 'warn',
};

export function startTestHub(options: Partial<LocalHubOptions> = {}): Promise<LocalHub> {
  return startLocalHub({
    workers: 2,
    pollMs: 300,
    ...options,
    workerEnv: { ...HUB_WORKER_ENV, ...options.workerEnv },
  });
}

/** A worker-log listener that records each tool start (its run and process group) into `starts`. */
export function recordToolStarts(starts: { runId: string; pid: number }[]): LocalHubOptions['onWorkerLog'] {
  return (_line, parsed) => {
    if (parsed?.msg === 'tool started') starts.push({ runId: String(parsed.runId), pid: Number(parsed.pid) });
  };
}
