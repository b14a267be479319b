import { describe, expect, it } from 'vitest';
import { runChaos } from '../../../local/chaos/run-chaos.js';
import { parseFaultRates } from '../../../local/faults/fault-rates.js';

const RGB = new URL('../../../examples/raster/RGB.byte.tif', import.meta.url).pathname;

const ALL_CHECKS = {
  everySubTileOneMarker: true,
  everyMarkerHasItsObject: true,
  noMarkerWithoutObject: true,
  noPartFiles: true,
  noOrphanedTools: true,
  noSelfCheckRefusals: true,
  redoneWithinBound: true,
  countersExact: true,
  countersNotInflated: true,
  nothingStranded: true,
  // Checked where nothing excuses a lost delivery (no SIGKILL, no SQS fault): the race case.
  noDeliveryLost: true,
};

describe('chaos (the short case; `npm run chaos` is the full one)', () => {
  it('AWS faults and random SIGKILL/SIGTERM to workers, production settings: nothing lost, nothing left, only in-flight work redone', async () => {
    const report = await runChaos({
      source: RGB,
      // 195 sub-tiles in 16 metatiles (4×4 blocks, smaller at the edges): one GDAL process warps a block in well under
      // a second, so kills come every 1–2 s to land while work is in flight.
      zoom: 11,
      workers: 3,
      killEveryMs: [1_000, 2_000],
      maxKills: 6,
      faults: parseFaultRates({
        GEOHUB_FAULT_SEED: '20261201',
        GEOHUB_FAULT_DYNAMODB_CONFLICT: '0.05',
        // 13 metatiles make ~15 transactions: at 5 % alone, one run in two would meet no conflict.
        GEOHUB_FAULT_DYNAMODB_CONFLICT_EVERY: '4',
        GEOHUB_FAULT_DYNAMODB_THROTTLE: '0.02',
        GEOHUB_FAULT_S3_503: '0.01',
        // AWS's documented service behaviour besides: Lambda service errors on task invocations,
        // StartExecution refused, execution-status events lost or late, empty short polls. Each
        // has its own stream of this seed: at these rates this run meets Lambda errors and a late
        // event (aws-service-behaviour.test.ts meets every kind for sure).
        GEOHUB_FAULT_LAMBDA_SERVICE: '0.15',
        GEOHUB_FAULT_SFN_START_THROTTLE: '0.5',
        GEOHUB_FAULT_EVENTS_LOST: '0.3',
        GEOHUB_FAULT_EVENTS_LATE: '0.95',
        GEOHUB_FAULT_EVENTS_LATE_MS: '2000',
        GEOHUB_FAULT_SQS_EMPTY_SHORT_POLL: '0.5',
      }),
      seed: 20261130,
      timeoutMs: 600_000,
    });
    process.stdout.write(`chaos figures: ${JSON.stringify(report)}\n`);
    expect(report.status).toBe('SUCCEEDED');
    expect(report.kills.sigkill + report.kills.sigterm).toBeGreaterThan(2);
    // The faults were really there, and answered as AWS answers.
    expect(report.faults?.injected.dynamodb.TransactionConflict ?? 0).toBeGreaterThan(0);
    expect(Object.keys(report.serviceFaults).some((k) => k.startsWith('Lambda.'))).toBe(true);
    expect(report.serviceFaults.EventLate ?? 0).toBeGreaterThan(0);
    expect(report.checks).toEqual(ALL_CHECKS);
    // Every process it started (emulators, Java, workers, tool groups) is gone after the stop.
    expect(report.leftAfterStop).toEqual([]);
    expect(report.ok).toBe(true);
  }, 720_000);

  it('eight workers racing on one run under conflict injection: counters exact, nothing redone', async () => {
    const report = await runChaos({
      source: RGB,
      zoom: 11, // 16 metatiles: enough for every worker to race on
      workers: 8,
      faults: parseFaultRates({
        GEOHUB_FAULT_SEED: '8',
        GEOHUB_FAULT_DYNAMODB_CONFLICT: '0.2',
        GEOHUB_FAULT_DYNAMODB_CONFLICT_EVERY: '4',
      }),
      seed: 8,
      timeoutMs: 400_000,
      // What is judged is conflicts: nothing retried. On a machine loaded to five times its cores,
      // eight workers' requests to the stand-ins outlasted the 10 s production request timeout
      // (a timed-out request is a retried attempt, rightly, and 92 of them opened the breaker).
      workerEnv: { GEOHUB_REQUEST_TIMEOUT_MS: '60000' },
    });
    process.stdout.write(`race figures: ${JSON.stringify(report)}\n`);
    expect(report.status).toBe('SUCCEEDED');
    expect(report.faults?.injected.dynamodb.TransactionConflict ?? 0).toBeGreaterThan(0);
    expect(report.checks).toEqual(ALL_CHECKS);
    // No kills: any metatile claimed twice, or any tile made twice, would be redone because of a conflict.
    expect(report.redoneMetatiles).toBe(0);
    expect(report.redone).toBe(0);
    expect(report.counters).toMatchObject({ done: report.tiles, failed: 0, retried: 0, interrupted: 0 });
    expect(report.leftAfterStop).toEqual([]);
  }, 480_000);
});
