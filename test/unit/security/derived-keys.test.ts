import { describe, expect, it } from 'vitest';
import { runIdFor, runIdSchema, tileIdFor, tileOutputKey } from '../../../lib/model/ids.js';

const hostileKeys = [
  'incoming/../../etc/passwd',
  'incoming/; rm -rf / #.tif',
  'incoming/$(reboot).tif',
  `incoming/${'a'.repeat(1000)}.tif`,
  'incoming/dossier très long/𝕏 ü.tif',
  'incoming/-co COMPRESS=NONE.tif',
];

describe('output keys are derived, never taken from input paths', () => {
  it.each(hostileKeys)('a source key %j gives a hashed run id and clean output keys', (key) => {
    const runId = runIdFor({ bucket: 'geohub-data', key, version: 'v1' });
    expect(runIdSchema.safeParse(runId).success).toBe(true);
    expect(runId).toMatch(/^r-[0-9a-f]{20}$/);
    const tile = { z: 12, x: 2100, y: 1300 };
    expect(tileOutputKey(runId, tile)).toBe(`tiles/${runId}/12/2100/1300.tif`);
    expect(tileIdFor(runId, 'raster-xyz', 'v1', tile)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('run ids that are not ours are refused by the schema every message passes', () => {
    for (const bad of ['../x', 'r-A', 'r-$(id)', '', 'r-'.padEnd(80, 'x')]) {
      expect(runIdSchema.safeParse(bad).success).toBe(false);
    }
  });
});
