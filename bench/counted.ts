/**
 * Every AWS request a sub-tile costs, from one run with everything counted: SDK middleware in
 * the workers and the coordinator, plus a counting proxy in front of S3 for GDAL's own ranged
 * reads, and the state machine's transitions. Not timed (the proxy slows GDAL's reads, and the
 * progress loop waits as long as on AWS, so its requests and transitions are AWS's).
 */
import { descendants } from '../lib/process/process-table.js';
import { startLocalHub } from '../local/hub/local-hub.js';
import type { BenchRaster } from './sources.js';
import { startCountingProxy } from './support/counting-http-proxy.js';
import { totalCpu } from './support/cpu.js';

export interface CountedRun {
  readonly requests: Record<string, number>;
  readonly s3HttpRequests: Record<string, number>;
  readonly transitions: number;
  readonly runSeconds: number;
  readonly tiles: number;
  /** CPU seconds the local AWS stand-ins and the worker processes used during the run. */
  readonly cpu: { readonly stack: number; readonly workers: number };
}

/** The progress loop's first wait on AWS (docs/architecture.md, "Runs of any length"). */
const AWS_PROGRESS_WAIT_MS = 10_000;

export async function countedRun(raster: BenchRaster, workers: number): Promise<CountedRun> {
  const requests: Record<string, number> = {};
  const count = (key: string, n = 1) => {
    requests[key] = (requests[key] ?? 0) + n;
  };
  let ready = 0;
  // AWS's cadence, not the local stack's quick one: a progress check every 10 s (its DLQ depth and
  // run read are coordinator requests), and the workers' production long poll of 20 s.
  const hub = await startLocalHub({
    workers: 0,
    pollMs: AWS_PROGRESS_WAIT_MS,
    onAwsRequest: (s, c) => count(`${s}.${c}`),
  });
  const proxy = await startCountingProxy(hub.stack.env.GEOHUB_ENDPOINT_S3!);
  try {
    const { startWorkerPool } = await import('../local/pool/worker-pool.js');
    const pool = startWorkerPool({
      size: workers,
      env: {
        ...hub.stack.env,
        GEOHUB_ENDPOINT_S3: proxy.endpoint,
        GEOHUB_COUNT_REQUESTS: '1',
        GEOHUB_RECEIVE_WAIT_S: '20',
        GEOHUB_LOG_LEVEL: 'info',
      },
      onLog: (_line, parsed) => {
        if (parsed?.msg === 'worker started') ready += 1;
        if (parsed?.msg === 'aws requests')
          for (const [k, v] of Object.entries(parsed.requests as Record<string, number>)) count(k, v);
      },
    });
    while (ready < workers) await new Promise((r) => setTimeout(r, 20));
    await hub.warm;
    const stackPids = hub.stack.pids.flatMap((pid) => [pid, ...descendants(pid)]);
    const stackCpu0 = totalCpu(stackPids);
    const workerCpu0 = totalCpu(pool.pids());
    const t0 = performance.now();
    const started = await hub.upload(raster.path, {
      name: 'bench-counted.tif',
      ...(raster.zoom === undefined ? {} : { job: { zoom: raster.zoom } }),
    });
    if (started.outcome !== 'started')
      throw new Error(`counted run did not start: ${JSON.stringify(started)}`);
    const execution = await hub.executions.wait(started.executionArn);
    const runSeconds = Math.round(performance.now() - t0) / 1000;
    const cpu = {
      stack: Math.round((totalCpu(stackPids) - stackCpu0) * 10) / 10,
      workers: Math.round((totalCpu(pool.pids()) - workerCpu0) * 10) / 10,
    };
    if (execution.status !== 'SUCCEEDED') throw new Error(`counted run ended ${execution.status}`);
    const tiles = (await hub.ledger.getRun(started.runId))?.counters.total ?? 0;
    // Workers report their counts when they exit.
    await pool.stop();
    return {
      requests,
      s3HttpRequests: proxy.counts(),
      transitions: execution.states.length,
      runSeconds,
      tiles,
      cpu,
    };
  } finally {
    await proxy.close();
    await hub.stop();
  }
}
