/**
 * `npm run chaos`: the chaos test at full size, with production worker settings, AWS faults
 * injected and its figures printed and saved. Options: --zoom <z> (default 11: ~250 sub-tiles
 * of RGB.byte.tif), --workers <n> (3), --seed <n>, --kill-min/--kill-max <ms> between kills
 * (1500/3500), --max-kills <n> (12), --tiles-per-message <n> (4: the metatile a kill may cost),
 * and the fault rates (probabilities per request): --conflict (0.05, DynamoDB
 * TransactionConflict), --throttle (0.02), --dynamodb-500 (0), --s3-503 (0.01), --s3-500 (0),
 * --sqs-500 (0), --latency-ms (0), and AWS's documented service behaviour: --lambda-errors (0.1,
 * Lambda service errors on Step Functions' task invocations), --start-throttle (0.3, StartExecution
 * refused), --events-lost (0.3) and --events-late (0.5; --events-late-ms 3000) for EventBridge's
 * execution-status events, --short-poll-empty (0.5, a short-poll receive seeing nothing).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parseFaultRates } from '../faults/fault-rates.js';
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
    'max-kills': { type: 'string', default: '12' },
    'tiles-per-message': { type: 'string', default: '4' },
    conflict: { type: 'string', default: '0.05' },
    throttle: { type: 'string', default: '0.02' },
    'dynamodb-500': { type: 'string', default: '0' },
    's3-503': { type: 'string', default: '0.01' },
    's3-500': { type: 'string', default: '0' },
    'sqs-500': { type: 'string', default: '0' },
    'latency-ms': { type: 'string', default: '0' },
    'lambda-errors': { type: 'string', default: '0.1' },
    'start-throttle': { type: 'string', default: '0.3' },
    'events-lost': { type: 'string', default: '0.3' },
    'events-late': { type: 'string', default: '0.5' },
    'events-late-ms': { type: 'string', default: '3000' },
    'short-poll-empty': { type: 'string', default: '0.5' },
  },
});

const faults = parseFaultRates({
  GEOHUB_FAULT_SEED: values.seed,
  GEOHUB_FAULT_DYNAMODB_CONFLICT: values.conflict,
  GEOHUB_FAULT_DYNAMODB_THROTTLE: values.throttle,
  GEOHUB_FAULT_DYNAMODB_500: values['dynamodb-500'],
  GEOHUB_FAULT_S3_503: values['s3-503'],
  GEOHUB_FAULT_S3_500: values['s3-500'],
  GEOHUB_FAULT_SQS_500: values['sqs-500'],
  GEOHUB_FAULT_LATENCY_MS: values['latency-ms'],
  GEOHUB_FAULT_LAMBDA_SERVICE: values['lambda-errors'],
  GEOHUB_FAULT_SFN_START_THROTTLE: values['start-throttle'],
  GEOHUB_FAULT_EVENTS_LOST: values['events-lost'],
  GEOHUB_FAULT_EVENTS_LATE: values['events-late'],
  GEOHUB_FAULT_EVENTS_LATE_MS: values['events-late-ms'],
  GEOHUB_FAULT_SQS_EMPTY_SHORT_POLL: values['short-poll-empty'],
});
const report = await runChaos({
  source: join(projectRoot(), 'examples', 'raster', 'RGB.byte.tif'),
  zoom: Number(values.zoom),
  workers: Number(values.workers),
  killEveryMs: [Number(values['kill-min']), Number(values['kill-max'])],
  maxKills: Number(values['max-kills']),
  tilesPerMessage: Number(values['tiles-per-message']),
  faults,
  seed: Number(values.seed),
  timeoutMs: 20 * 60_000,
});
const leftovers = report.leftAfterStop;
const result = {
  ...report,
  seed: Number(values.seed),
  rates: faults,
  machine: `${cpus().length} × ${cpus()[0]?.model ?? '?'}`,
};
const dir = join(projectRoot(), '.bench');
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'chaos.json'), `${JSON.stringify(result, null, 2)}\n`);

const yes = (b: boolean) => (b ? 'yes' : 'NO');
const c = report.checks;
const injected = Object.entries(report.faults?.injected ?? {})
  .flatMap(([service, kinds]) => Object.entries(kinds).map(([kind, n]) => `${service} ${kind} ${n}`))
  .join(', ');
const requests = Object.entries(report.faults?.requests ?? {})
  .map(([service, n]) => `${service} ${n}`)
  .join(', ');
const lines = [
  `chaos: run ${report.runId} ${report.status} in ${(report.durationMs / 1000).toFixed(1)} s (seed ${values.seed})`,
  `  ${report.tiles} sub-tiles in ${report.metatiles} metatiles, ${report.workers} workers, ${report.kills.sigkill} SIGKILL + ${report.kills.sigterm} SIGTERM, ${report.restarts} restarts`,
  `  AWS requests: ${requests}; injected: ${injected || 'none'}`,
  `  injected outside the proxies: ${JSON.stringify(report.serviceFaults)}`,
  `  tool invocations ${report.toolInvocations}: ${report.redone} redone; metatiles redone ${report.redoneMetatiles} (bound: two in flight per kill, one in its tool and one uploading)`,
  `  counters ${JSON.stringify(report.counters)}`,
  `  every sub-tile exactly one marker: ${yes(c.everySubTileOneMarker)}; every marker has its object: ${yes(c.everyMarkerHasItsObject)}`,
  `  no marker without object: ${yes(c.noMarkerWithoutObject)}; counters exact: ${yes(c.countersExact)}; not inflated: ${yes(c.countersNotInflated)}`,
  `  no .part: ${yes(c.noPartFiles)}; no orphaned tool: ${yes(c.noOrphanedTools)}; no self-check refusal: ${yes(c.noSelfCheckRefusals)}; redone within bound: ${yes(c.redoneWithinBound)}`,
  `  nothing stranded (work queue drained, DLQ empty, run SUCCEEDED after the reaper's round): ${yes(c.nothingStranded)}`,
  `  no delivery lost (no metatile first claimed from a message delivered before; SIGTERM only): ${yes(c.noDeliveryLost)}`,
  `  processes it started still running after the stop: ${leftovers.length === 0 ? 'none' : leftovers.join(', ')}`,
  report.ok ? 'chaos: PASS' : 'chaos: FAIL',
];
process.stdout.write(`${lines.join('\n')}\n`);
process.exitCode = report.ok ? 0 : 1;
