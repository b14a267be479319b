import { describe, expect, it } from 'vitest';
import { runChaos } from '../../../local/chaos/run-chaos.js';

const RGB = new URL('../../../examples/raster/RGB.byte.tif', import.meta.url).pathname;

describe('chaos (the short case; `npm run chaos` is the full one)', () => {
  it('random SIGKILL and SIGTERM to workers lose nothing, leave nothing, and redo at most the in-flight work', async () => {
    const report = await runChaos({
      source: RGB,
      zoom: 10,
      workers: 3,
      killEveryMs: [1_000, 2_500],
      seed: 20261130,
      timeoutMs: 240_000,
    });
    process.stdout.write(`chaos figures: ${JSON.stringify(report)}\n`);
    expect(report.status).toBe('SUCCEEDED');
    expect(report.kills.sigkill + report.kills.sigterm).toBeGreaterThan(2);
    expect(report.checks).toEqual({
      everySubTileOneMarker: true,
      everyMarkerHasItsObject: true,
      noMarkerWithoutObject: true,
      noPartFiles: true,
      noOrphanedTools: true,
      redoneWithinBound: true,
      countersExact: true,
    });
    // Every process it started (emulators, Java, workers, tool groups) is gone after the stop.
    expect(report.leftAfterStop).toEqual([]);
    expect(report.ok).toBe(true);
  }, 300_000);
});
