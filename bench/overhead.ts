/**
 * Orchestration overhead: `geohub`'s full path (upload → split → enqueue → workers → marker →
 * finalize) against the raw tool run directly, `xargs -P <workers> gdalwarp`, over exactly the
 * same tile windows and the same gdalwarp arguments, in the same bench run. Also counts every
 * AWS request each sub-tile costs (SDK middleware in workers and coordinator, plus a counting
 * proxy in front of S3 for GDAL's own ranged reads) and the state machine's transitions.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { rasterXyzArgs } from '../lib/operations/raster-xyz.js';
import { descendants } from '../lib/process/process-table.js';
import { manifestTiles } from '../local/chaos/manifest-tiles.js';
import { startLocalHub } from '../local/hub/local-hub.js';
import { startCountingProxy } from './support/counting-http-proxy.js';
import { totalCpu } from './support/cpu.js';

export interface OverheadFigures {
  readonly tiles: number;
  readonly workers: number;
  readonly rawSeconds: number;
  readonly runs: readonly {
    readonly sourceAccess: 'ranged' | 'cached';
    readonly startupSeconds: number;
    readonly runSeconds: number;
    readonly stopSeconds: number;
    readonly ratioExcludingStartup: number;
    readonly ratioIncludingStartup: number;
    /** CPU seconds the local AWS stand-ins (DynamoDB Local, s3rver, SQS) and the worker processes used during the run. */
    readonly cpu: { readonly stack: number; readonly workers: number };
  }[];
  /** From a third run with every AWS request counted (GDAL's through a counting proxy). */
  readonly counted: {
    requests: Record<string, number>;
    s3HttpRequests: Record<string, number>;
    transitions: number;
    runSeconds: number;
  };
}

const seconds = (ms: number) => Math.round(ms) / 1000;

/** A raster with real work per tile: shade.tif at 4× its resolution (4096², ~2.4 m/px). */
export function benchSource(root: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'geohub-bench-'));
  const out = join(dir, 'shade4x.tif');
  execFileSync('gdal_translate', [
    '-q',
    '-outsize',
    '400%',
    '400%',
    '-r',
    'cubic',
    '-co',
    'COMPRESS=DEFLATE',
    '-co',
    'TILED=YES',
    join(root, 'examples/raster/shade.tif'),
    out,
  ]);
  return out;
}

export async function benchOverhead(source: string, workers = 2): Promise<OverheadFigures> {
  const runs: OverheadFigures['runs'][number][] = [];
  let tiles: { z: number; x: number; y: number; id: string }[] = [];
  // Timed runs go without the counting proxy (it would slow GDAL's reads); a third run counts.
  const plan = [
    { sourceAccess: 'ranged' as const, counted: false },
    { sourceAccess: 'cached' as const, counted: false },
    { sourceAccess: 'ranged' as const, counted: true },
  ];
  let counted:
    | {
        requests: Record<string, number>;
        s3HttpRequests: Record<string, number>;
        transitions: number;
        runSeconds: number;
      }
    | undefined;
  for (const { sourceAccess, counted: counting } of plan) {
    const requests: Record<string, number> = {};
    const count = (service: string, command: string) => {
      requests[`${service}.${command}`] = (requests[`${service}.${command}`] ?? 0) + 1;
    };
    const t0 = performance.now();
    let proxy: Awaited<ReturnType<typeof startCountingProxy>> | undefined;
    let ready = 0;
    const hub = await startLocalHub({
      workers: 0,
      pollMs: 250,
      onAwsRequest: count,
    });
    try {
      if (counting) proxy = await startCountingProxy(hub.stack.env.GEOHUB_ENDPOINT_S3!);
      const { startWorkerPool } = await import('../local/pool/worker-pool.js');
      const pool = startWorkerPool({
        size: workers,
        env: {
          ...hub.stack.env,
          GEOHUB_ENDPOINT_S3: proxy?.endpoint ?? hub.stack.env.GEOHUB_ENDPOINT_S3!,
          GEOHUB_SOURCE_ACCESS: sourceAccess,
          GEOHUB_COUNT_REQUESTS: '1',
          GEOHUB_RECEIVE_WAIT_S: '1',
          GEOHUB_LOG_LEVEL: 'info',
        },
        onLog: (_line, parsed) => {
          if (parsed?.msg === 'worker started') ready += 1;
          if (parsed?.msg === 'aws requests') {
            for (const [k, v] of Object.entries(parsed.requests as Record<string, number>)) {
              requests[k] = (requests[k] ?? 0) + v;
            }
          }
        },
      });
      const stackPids = hub.stack.pids.flatMap((pid) => [pid, ...descendants(pid)]);
      // Start-up is measured apart: the run starts once every worker is polling.
      while (ready < workers) await new Promise((r) => setTimeout(r, 20));
      const stackCpu0 = totalCpu(stackPids);
      const workerCpu0 = totalCpu(pool.pids());
      const t1 = performance.now();
      const started = await hub.upload(source, { name: `bench-${sourceAccess}.tif` });
      if (started.outcome !== 'started')
        throw new Error(`bench run did not start: ${JSON.stringify(started)}`);
      const execution = await hub.executions.wait(started.executionArn);
      const t2 = performance.now();
      const cpu = {
        stack: Math.round((totalCpu(stackPids) - stackCpu0) * 10) / 10,
        workers: Math.round((totalCpu(pool.pids()) - workerCpu0) * 10) / 10,
      };
      if (execution.status !== 'SUCCEEDED')
        throw new Error(`bench run ended ${execution.status}: ${execution.cause}`);
      tiles = await manifestTiles(hub.store, started.runId);
      await pool.stop();
      await hub.stop();
      const t3 = performance.now();
      if (counting) {
        counted = {
          requests,
          s3HttpRequests: proxy!.counts(),
          transitions: execution.states.length,
          runSeconds: seconds(t2 - t1),
        };
        continue;
      }
      runs.push({
        sourceAccess,
        startupSeconds: seconds(t1 - t0),
        runSeconds: seconds(t2 - t1),
        stopSeconds: seconds(t3 - t2),
        ratioExcludingStartup: 0,
        ratioIncludingStartup: 0,
        cpu,
      });
    } finally {
      await proxy?.close();
      await hub.stop();
    }
  }

  // The raw tool over exactly the same windows: the worker's own gdalwarp argv, local source.
  const out = mkdtempSync(join(tmpdir(), 'geohub-raw-'));
  const lines = tiles.map((tile) =>
    rasterXyzArgs({
      source,
      tile,
      params: { resampling: 'bilinear' },
      output: join(out, `${tile.z}-${tile.x}-${tile.y}.tif`),
      scratch: out,
    }).join(' '),
  );
  const list = join(out, 'invocations.txt');
  writeFileSync(list, `${lines.join('\n')}\n`);
  const r0 = performance.now();
  await execa('xargs', ['-P', String(workers), '-L', '1', 'gdalwarp'], { inputFile: list });
  const rawSeconds = seconds(performance.now() - r0);
  rmSync(out, { recursive: true, force: true });

  if (!counted) throw new Error('the counted run did not happen');
  return {
    tiles: tiles.length,
    workers,
    rawSeconds,
    counted,
    runs: runs.map((r) => ({
      ...r,
      ratioExcludingStartup: Math.round((r.runSeconds / rawSeconds) * 100) / 100,
      ratioIncludingStartup:
        Math.round(((r.startupSeconds + r.runSeconds + r.stopSeconds) / rawSeconds) * 100) / 100,
    })),
  };
}
