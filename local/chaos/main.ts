/**
 * `npm run chaos`: the chaos test at full size, with its figures printed and saved.
 * Options: --zoom <z> (default 11: ~250 sub-tiles of RGB.byte.tif), --workers <n> (3),
 * --seed <n>, --kill-min/--kill-max <ms> between kills (1500/3500).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { projectRoot } from '../project-root.js';
import { runChaos } from './run-chaos.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const { values } = parseArgs({
  options: {
    zoom: { type: 'string', default: '11' },
    workers: { type: 'string', default: '3' },
    seed: { type: 'string', default: String(Date.now() % 100_000) },
    'kill-min': { type: 'string', default: '1500' },
    'kill-max': { type: 'string', default: '3500' },
  },
});

const report = await runChaos({
  source: join(projectRoot(), 'examples', 'raster', 'RGB.byte.tif'),
  zoom: Number(values.zoom),
  workers: Number(values.workers),
  killEveryMs: [Number(values['kill-min']), Number(values['kill-max'])],
  seed: Number(values.seed),
  timeoutMs: 15 * 60_000,
});
const leftovers = report.leftAfterStop;
const result = {
  ...report,
  seed: Number(values.seed),
  machine: `${cpus().length} × ${cpus()[0]?.model ?? '?'}`,
};
const dir = join(projectRoot(), '.bench');
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'chaos.json'), `${JSON.stringify(result, null, 2)}\n`);

const yes = (b: boolean) => (b ? 'yes' : 'NO');
const c = report.checks;
const lines = [
  `chaos: run ${report.runId} ${report.status} in ${(report.durationMs / 1000).toFixed(1)} s (seed ${values.seed})`,
  `  ${report.tiles} sub-tiles, ${report.workers} workers, ${report.kills.sigkill} SIGKILL + ${report.kills.sigterm} SIGTERM, ${report.restarts} restarts`,
  `  tool invocations ${report.toolInvocations}: ${report.redone} redone (bound: ${report.redoneBound}, one in-flight sub-tile per kill)`,
  `  every sub-tile exactly one marker: ${yes(c.everySubTileOneMarker)}; every marker has its object: ${yes(c.everyMarkerHasItsObject)}`,
  `  no marker without object: ${yes(c.noMarkerWithoutObject)}; counters exact: ${yes(c.countersExact)}`,
  `  no .part: ${yes(c.noPartFiles)}; no orphaned tool: ${yes(c.noOrphanedTools)}; redone within bound: ${yes(c.redoneWithinBound)}`,
  `  processes it started still running after the stop: ${leftovers.length === 0 ? 'none' : leftovers.join(', ')}`,
  report.ok ? 'chaos: PASS' : 'chaos: FAIL',
];
process.stdout.write(`${lines.join('\n')}\n`);
process.exitCode = report.ok ? 0 : 1;
