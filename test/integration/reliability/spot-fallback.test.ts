import { describe, expect, it } from 'vitest';
import { runChaos } from '../../../local/chaos/run-chaos.js';
import { parseFaultRates } from '../../../local/faults/fault-rates.js';

const RGB = new URL('../../../examples/raster/RGB.byte.tif', import.meta.url).pathname;

describe('spot → on-demand fallback under a high spot reclaim rate', () => {
  it('shifts new workers to on-demand past the break-even rate and back to spot when it falls; the run succeeds', async () => {
    const report = await runChaos({
      source: RGB,
      zoom: 10,
      workers: 3,
      // SIGTERM to a busy spot worker every 0.3–0.7 s: far more often than spot ever is.
      killEveryMs: [300, 700],
      seed: 20261201,
      timeoutMs: 540_000,
      // Production settings, but a stop grace no longer than the cleanup reserve: a reclaim
      // interrupts the sub-tile in flight (as when a sub-tile does not fit in the warning).
      workerEnv: { GEOHUB_STOP_GRACE_MS: '3000' },
      tilesPerMessage: 1,
      faults: parseFaultRates({}),
      // A 4 s window: the rate falls back within a 56-metatile run even on a quick stack (with
      // 6 s, a run that ended 0.5 s after its rate fell never saw the switch back).
      spotReclaims: { capacity: { windowMs: 4_000, minAttempts: 4, everyMs: 500 } },
    });
    process.stdout.write(`spot fallback figures: ${JSON.stringify(report)}\n`);
    expect(report.status).toBe('SUCCEEDED');
    expect(report.kills.sigkill).toBe(0);
    // Every chaos check holds (one marker and one object per sub-tile, no debris, redone ≤ bound).
    const failedChecks = Object.entries(report.checks).filter(([, ok]) => !ok);
    expect(failedChecks).toEqual([]);
    expect(Object.keys(report.checks).length).toBeGreaterThanOrEqual(7);
    expect(report.leftAfterStop).toEqual([]);

    const { switches, cost } = report.capacity;
    // To on-demand when the observed rate passed the break-even rate, then back when it fell.
    const out = switches.findIndex((s) => s.from === 'spot' && s.to === 'on-demand');
    expect(out).toBeGreaterThanOrEqual(0);
    expect(switches[out]!.rate).toBeGreaterThan(switches[out]!.breakEven);
    const back = switches.findIndex((s, i) => i > out && s.from === 'on-demand' && s.to === 'spot');
    expect(back).toBeGreaterThan(out);
    expect(switches[back]!.rate).toBeLessThan(switches[back]!.breakEven);

    // The cost estimate reflects the mix: both capacities ran, the total lies between all-spot and all-on-demand.
    expect(cost.spotSeconds).toBeGreaterThan(0);
    expect(cost.onDemandSeconds).toBeGreaterThan(0);
    expect(cost.onDemandShare).toBeGreaterThan(0);
    expect(cost.onDemandShare).toBeLessThan(1);
    expect(cost.total).toBeGreaterThan(cost.allSpot);
    expect(cost.total).toBeLessThan(cost.allOnDemand);
  }, 600_000);
});
