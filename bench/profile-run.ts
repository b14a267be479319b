/**
 * Where one `geohub` run spends its time beyond GDAL's compute: `node --import tsx
 * bench/profile-run.ts [--raster float32|byte] [--workers n] [--runs n]`. Times each phase of the
 * bench's run (the overhead bench's raster, stack already up, workers polling) from the workers'
 * logs and the ledger: upload of the source and the trigger, split, queue latency until the first
 * tool, the tools, the uploads and markers beside them, the tail until the execution ends
 * (progress poll, finalize). Prints one JSON object per run on stdout.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startLocalHub } from '../local/hub/local-hub.js';
import { projectRoot } from '../local/project-root.js';
import { benchDir, benchRasters } from './sources.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const { values: args } = parseArgs({
  options: {
    raster: { type: 'string', default: 'float32' },
    workers: { type: 'string' },
    runs: { type: 'string', default: '1' },
  },
});
const workers = Number(args.workers ?? availableParallelism());
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const s = (ms: number) => Math.round(ms) / 1000;

async function profileOnce(path: string) {
  let ready = 0;
  let firstTool = 0;
  let lastDone = 0;
  const tools = new Set<number>();
  const metatiles: { durationMs: number; toolMs: number; waitMs: number; uploadMs: number }[] = [];
  const hub = await startLocalHub({
    workers,
    pollMs: 250,
    workerEnv: { GEOHUB_RECEIVE_WAIT_S: '1', GEOHUB_LOG_LEVEL: 'info' },
    onWorkerLog: (_line, p) => {
      if (p?.msg === 'worker started') ready += 1;
      if (p?.msg === 'tool started') {
        firstTool ||= performance.now();
        tools.add(Number(p.pid));
      }
      if (p?.msg === 'metatile done') {
        lastDone = performance.now();
        metatiles.push({
          durationMs: Number(p.durationMs),
          toolMs: Number(p.toolMs),
          waitMs: Number(p.waitMs),
          uploadMs: Number(p.uploadMs),
        });
      }
    },
  });
  try {
    while (ready < workers) await sleep(20);
    await hub.warm;
    const t0 = performance.now();
    const started = await hub.upload(path, { name: 'bench.tif' });
    if (started.outcome !== 'started')
      throw new Error(`profile run did not start: ${JSON.stringify(started)}`);
    const uploaded = performance.now();
    let total = 0;
    while (!total) {
      total = (await hub.ledger.getRun(started.runId))?.counters.total ?? 0;
      if (!total) await sleep(10);
    }
    const split = performance.now();
    const execution = await hub.executions.wait(started.executionArn);
    const end = performance.now();
    const sum = (k: keyof (typeof metatiles)[number]) => s(metatiles.reduce((n, m) => n + m[k], 0));
    const active = s((lastDone - firstTool) * workers);
    return {
      status: execution.status,
      subTiles: total,
      metatiles: metatiles.length,
      toolProcesses: tools.size,
      seconds: {
        run: s(end - t0),
        uploadAndTrigger: s(uploaded - t0),
        split: s(split - uploaded),
        untilFirstTool: s(firstTool - split),
        firstToolToLastMarker: s(lastDone - firstTool),
        lastMarkerToEnd: s(end - lastDone),
      },
      // Summed over metatiles; `workerSeconds` = workers × (first tool → last marker).
      metatileSeconds: {
        workerSeconds: active,
        tool: sum('toolMs'),
        waitForPreviousMarker: sum('waitMs'),
        uploadAndMarker: sum('uploadMs'),
        toolShareOfWorkerSeconds: Math.round((sum('toolMs') / active) * 100) / 100,
      },
    };
  } finally {
    await hub.stop();
  }
}

const root = projectRoot();
const dir = benchDir();
try {
  const [byte, float32] = benchRasters(root, dir, false);
  const raster = args.raster === 'byte' ? byte! : float32!;
  process.stderr.write(`profile: ${raster.label}, ${workers} workers\n`);
  for (let i = 0; i < Number(args.runs); i += 1)
    process.stdout.write(`${JSON.stringify(await profileOnce(raster.path))}\n`);
} finally {
  const { rmSync } = await import('node:fs');
  rmSync(join(dir), { recursive: true, force: true });
}
