import { join } from 'node:path';
import { createAdapters } from '../lib/adapters/create-adapters.js';
import { loadConfig } from '../lib/config/config.js';
import { createLogger } from '../lib/log/logger.js';
import { markPhase } from '../lib/log/phase-marks.js';
import { createEnginePool } from '../lib/process/engine-pool.js';
import { readChildren } from '../lib/pyramid/child-tiles.js';
import { batchedDeletes } from './batched-deletes.js';
import { loadWorkerConfig } from './config.js';
import { type ParentChannel, stackStopping } from './env-from-parent.js';
import { TileRetryableError } from './errors.js';
import { EXIT_SELF_CHECK } from './exit-codes.js';
import { withFaults } from './faults.js';
import { gdalEnv } from './gdal-env.js';
import { handleMessage } from './handle-message.js';
import type { HandleMessageDeps } from './handle-message-deps.js';
import { memberAccess } from './member-access.js';
import { metatileCommand } from './metatile-command.js';
import { NEEDS_LOCAL_SOURCE, OPERATIONS_BY_NAME } from './operations.js';
import { engineSpec, type ProcessTileDeps } from './process-tile.js';
import { processTiles } from './process-tiles.js';
import { freeingOldCopies } from './recent-runs.js';
import { selfCheck } from './self-check.js';
import { sizedSourceAccess } from './sized-source-access.js';
import { cachedSourceAccess, rangedSourceAccess, routeSourceAccess } from './source-access.js';
import { guardSourceVersion } from './source-version-guard.js';
import { createStopController } from './stop-controller.js';
import { workerLoop } from './worker-loop.js';

export interface WorkerProcess extends ParentChannel {
  readonly env: NodeJS.ProcessEnv;
  on(signal: 'SIGTERM' | 'SIGINT', listener: () => void): void;
  on(event: 'message', listener: (message: unknown) => void): unknown;
}

/** The worker process: self-check, then the receive loop until idle or stopped; returns the exit code. */
export async function runWorker(proc: WorkerProcess = process): Promise<number> {
  const config = loadConfig(proc.env);
  const wc = loadWorkerConfig(proc.env);
  const log = createLogger({ worker: wc.workerId });

  // Budgets bound every tool: anything older than the longest of them is an orphan.
  const problems = await selfCheck({ scratchDir: wc.scratchDir, maxToolAgeSeconds: wc.orphanAgeSeconds });
  if (problems.length > 0) {
    log.error({ problems }, 'self-check failed: refusing work');
    process.stderr.write(
      `geohub-worker: refusing work, the self-check found debris:\n  ${problems.join('\n  ')}\n`,
    );
    return EXIT_SELF_CHECK;
  }

  const requests = new Map<string, number>();
  const adapters = createAdapters(
    config,
    wc.countRequests
      ? {
          onRequest: (service, command) =>
            requests.set(`${service}.${command}`, (requests.get(`${service}.${command}`) ?? 0) + 1),
        }
      : {},
  );
  const { ledger, queue } = adapters;
  const store = withFaults(adapters.store, wc.fault);
  const cached = cachedSourceAccess(store, join(wc.scratchDir, 'sources'));
  const ranged = rangedSourceAccess(store, join(wc.scratchDir, 'pins'));
  const preferred =
    wc.sourceAccess === 'cached'
      ? cached
      : wc.sourceAccess === 'ranged'
        ? ranged
        : sizedSourceAccess(ranged, cached, store, wc.sourceCacheMaxBytes, (run, way, bytes) =>
            log.info({ runId: run.runId, sourceAccess: way, bytes }, 'source access chosen'),
          );
  const sources = routeSourceAccess(preferred, cached, NEEDS_LOCAL_SOURCE);
  const members = memberAccess(store, join(wc.scratchDir, 'members'));
  // After each metatile, the copies of runs neither in flight nor among the last few are freed.
  const freeing = freeingOldCopies([sources, members], (error) =>
    log.warn({ err: error }, 'freeing old runs’ copies failed: they stay on the scratch disk'),
  );
  const stop = createStopController({
    graceMs: wc.stopGraceMs,
    reserveMs: Math.min(wc.stopGraceMs, wc.killGraceMs + 5_000),
  });
  proc.on('SIGTERM', () => {
    log.warn('SIGTERM: finishing the metatiles in flight if they fit in the grace period, then stopping');
    stop.request('SIGTERM');
  });
  proc.on('SIGINT', () => {
    log.warn('SIGINT: cancelling the metatiles in flight and stopping');
    stop.request('SIGINT');
  });

  // The local pool's stack is going (its SIGTERM follows): a stop like the SIGTERM, the poll
  // abandoned at once (worker-loop.ts).
  const stackGone = stackStopping(proc);
  stackGone.addEventListener('abort', () => stop.request('SIGTERM'), { once: true });

  const toolEnv = gdalEnv(config, proc.env);
  const metatileEngine = metatileCommand(wc.gdalPython);
  const engines = createEnginePool();
  // Started now, while the queue is polled: the first metatile of a run does not wait for the
  // interpreter and GDAL's import (a third of a second here, on its run's critical path).
  engines.prestart(
    engineSpec({ toolEnv, scratchDir: wc.scratchDir }, metatileEngine.file, metatileEngine.args),
  );
  const deletes = batchedDeletes(queue, log, Math.floor(wc.leaseMs / 3));
  // Built once for the worker's life: a message only brings its run and its metatile.
  const tileDeps: ProcessTileDeps = {
    store,
    sources,
    members,
    operations: OPERATIONS_BY_NAME,
    scratchDir: wc.scratchDir,
    toolTimeoutMs: wc.toolTimeoutMs,
    killGraceMs: wc.killGraceMs,
    toolEnv,
    // Reads pinned to the run's source version (If-Match on GDAL's ranged GETs), and the run
    // named: with each engine request (one engine serves every run), in a one-off tool's environment.
    runScope: (run) => ({ runId: run.runId, config: sources.toolEnv(run) }),
    metatileEngine,
    engines,
    outputMirrorDir: wc.outputMirrorDir,
    outputMirrorPerRun: wc.outputMirrorPerRun,
    childTiles: async (run, metatile) => {
      const children = await readChildren(ledger, run.runId, metatile);
      // Checked before the claim: a child re-driven since is made again first.
      if (!children.ready) throw new TileRetryableError(`${children.pending} child metatiles are not made`);
      return children.tiles;
    },
    // One line per sub-tile the tool works on: tool work is counted by sub-tile.
    onToolStart: (file, pid, started, runId) => {
      for (const tile of started)
        log.info({ runId, tileId: tile.id, z: tile.z, tool: file, pid }, 'tool started');
      markPhase('worker: tool started');
    },
  };
  const messageDeps: HandleMessageDeps = {
    ledger,
    queue: deletes.queue,
    store,
    log,
    stop,
    workerId: wc.workerId,
    leaseMs: wc.leaseMs,
    runWatchMs: wc.runWatchMs,
    retryDelaySeconds: wc.retryDelaySeconds,
    processTiles: guardSourceVersion({ ledger, sources, members, log }, (run, metatile, signal, hooks) =>
      freeing(run.runId, () => processTiles(tileDeps, run, metatile, signal, hooks)),
    ),
  };
  try {
    log.info({ scratch: wc.scratchDir, sourceAccess: wc.sourceAccess }, 'worker started');
    markPhase('worker: polling');
    const code = await workerLoop({
      queue,
      log,
      stop,
      receiveWaitSeconds: wc.receiveWaitSeconds,
      visibilitySeconds: Math.ceil(wc.leaseMs / 1000),
      idleExitMs: wc.idleExitMs,
      abandonReceive: AbortSignal.any([stop.interrupted, stackGone]),
      onIdle: () => deletes.flush(),
      handle: (message, handoff) => handleMessage(messageDeps, message, handoff),
    });
    log.info({ code }, 'worker stopping');
    return code;
  } finally {
    await deletes.flush();
    if (wc.countRequests) log.info({ requests: Object.fromEntries(requests) }, 'aws requests');
    stop.dispose();
    await engines.close();
    await sources.dispose().catch(() => {});
    await members.dispose().catch(() => {});
    adapters.destroy();
  }
}
