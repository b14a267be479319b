import { describe, expect, it } from 'vitest';
import { runChaos } from '../../../local/chaos/run-chaos.js';
import { parseFaultRates } from '../../../local/faults/fault-rates.js';

const RGB = new URL('../../../examples/raster/RGB.byte.tif', import.meta.url).pathname;

describe('a pyramid under SIGKILL and SIGTERM while its lower levels are made', () => {
  it('ends SUCCEEDED with every tile of every level once, only the work in flight redone, nothing left', async () => {
    const report = await runChaos({
      source: RGB,
      // 195 tiles at zoom 11, 56 at 10, 20 at 9, 6 at 8: the lower levels are 82 tiles in 15
      // metatiles, each made from its children in a fraction of a second.
      zoom: '8-11',
      killDuringLowerLevels: true,
      workers: 3,
      killEveryMs: [200, 700],
      maxKills: 4,
      faults: parseFaultRates({}),
      seed: 20261206,
      timeoutMs: 400_000,
      // A SIGKILLed claim waits out its lease: 10 s, not the production minute, to keep the suite short.
      workerEnv: { GEOHUB_LEASE_MS: '10000' },
    });
    process.stdout.write(`pyramid chaos figures: ${JSON.stringify(report)}\n`);
    expect(report.status).toBe('SUCCEEDED');
    expect(report.tiles).toBe(195 + 56 + 20 + 6);
    // The kills began with the lower levels, and lower-level work went on after them.
    expect(report.lowerLevels?.kills).toBeGreaterThan(0);
    expect(report.lowerLevels?.toolStartsAfterFirstKill).toBeGreaterThan(0);
    expect(report.kills.sigkill + report.kills.sigterm).toBe(report.lowerLevels?.kills);
    expect(Object.values(report.checks).every(Boolean)).toBe(true);
    expect(report.checks).toMatchObject({
      everySubTileOneMarker: true,
      redoneWithinBound: true,
      countersExact: true,
      nothingStranded: true,
    });
    expect(report.leftAfterStop).toEqual([]);
    expect(report.ok).toBe(true);
  }, 480_000);
});
