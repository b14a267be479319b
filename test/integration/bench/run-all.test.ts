import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import type { BenchResults } from '../../../bench/table.js';
import { projectRoot } from '../../../local/project-root.js';
import { tempDir } from '../../support/temp-dir.js';

const ROOT = projectRoot();

// The bench itself in CI: `--quick` runs every benchmark once on small inputs. What is checked is
// that each produces its figures and the properties they stand for, never how fast anything was.
describe('npm run bench, short version', () => {
  it('produces every figure of the table from real runs, and leaves the README as it was', async () => {
    const dir = tempDir('geohub-bench-check-');
    const results = join(dir, 'results.json');
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const run = await execa(
      process.execPath,
      ['--import', 'tsx', 'bench/run-all.ts', '--quick', '--results', results],
      {
        cwd: ROOT,
        reject: false,
      },
    );
    expect(run.exitCode, run.stderr.slice(-2_000)).toBe(0);
    const r = JSON.parse(readFileSync(results, 'utf8')) as BenchResults;

    expect(r.overhead).toHaveLength(2);
    for (const o of r.overhead) {
      expect(o.tiles).toBeGreaterThan(0);
      expect(o.geohub.toolRuns).toBeGreaterThan(0);
      for (const s of [
        o.geohub.run,
        o.geohub.withStartup,
        o.geohub.withUp!,
        // The quick rasters are all timed against the raw tool too (none is `peers: 'tiler'`).
        o.rawExact!,
        o.rawDefault!,
        o.gdal2tiles,
      ]) {
        expect(s.runs).toBe(1);
        expect(s.median).toBeGreaterThan(0);
      }
      expect(o.gdal2tiles.tiles).toBeGreaterThan(0);
      expect(o.bytesPerTile!.before).toBeGreaterThan(0);
      expect(o.bytesPerTile!.after).toBeGreaterThan(0);
      expect(Object.values(o.ratios).every((x) => Number.isFinite(x) && x > 0)).toBe(true);
    }
    // The metatile engine: RGB.byte.tif's 3×2 sub-tiles at zoom 8 are one metatile, one tool process.
    expect([r.overhead[1]!.tiles, r.overhead[1]!.geohub.toolRuns]).toEqual([6, 1]);
    expect(r.counted!.tiles).toBeGreaterThan(0);
    expect(r.counted!.requests['S3.PutObjectCommand'] ?? r.counted!.s3HttpRequests.PUT).toBeGreaterThan(0);
    expect(r.split!.subTiles).toBe(1_600);
    // The split Lambda's bundle: the registry is in it, and it fits Lambda's limits (else exit 1).
    expect(r.bundle!.withinLambdaLimits).toBe(true);
    expect(r.bundle!.withRegistry.bundleBytes).toBeGreaterThan(r.bundle!.withoutRegistry.bundleBytes);
    expect(r.bundle!.withRegistry.firstLookupMsMedian).toBeGreaterThanOrEqual(0);

    // SIGTERM with a tool in flight: the tool's sub-tiles were counted, and no more than those redone.
    // With the production grace, what was in flight is finished: nothing redone.
    for (const s of [...r.resume!.sigterm!.graceful, ...r.resume!.sigterm!.abrupt]) {
      expect(s.status).toBe('SUCCEEDED');
      expect(s.inFlightTiles).toBeGreaterThan(0);
      expect(s.inFlightMetatiles).toBeLessThanOrEqual(2);
      expect(s.redone).toBeLessThanOrEqual(s.inFlightTiles);
    }
    for (const s of r.resume!.sigterm!.graceful) expect(s.redone).toBe(0);
    // The re-run of a completed run made by real warps runs no tool at all.
    expect(r.resume!.rerun!.tiles).toBeGreaterThan(0);
    expect(r.resume!.rerun!.toolInvocations).toBe(0);
    // The SIGTERM-ignoring tool had written its .part, and was still cleaned up.
    expect(r.cancel!.stubborn.partsWritten).toBe(1);
    for (const c of [r.cancel!.cooperative, r.cancel!.stubborn])
      for (const s of [c.groupDeadMs, c.partGoneMs, c.claimReleasedMs])
        expect(s.median).toBeGreaterThanOrEqual(0);

    // The kill grace, measured on a real engine mid-warp: its group ended on SIGTERM, long before
    // the grace (the bench throws if it outlived SIGTERM by 60 s).
    for (const g of [r.cancel!.grace!.vsis3Ms, r.cancel!.grace!.localMs]) expect(g.max).toBeLessThan(10_000);
    // The point-cloud engines where a real PDAL is at hand (../shared/tools in CI; none on a bare clone).
    if (r.pdal) {
      expect(r.pdal.inputs.map((i) => i.tiles)).toEqual([4, 1]);
      expect(r.pdal.sizing.tilesPerMessage).toBeGreaterThanOrEqual(1);
    }
    expect(run.stdout).toContain('| figure | result | target |');
    expect(run.stdout).toContain('| split Lambda bundle with the EPSG registry');
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toBe(readme);
  }, 1_800_000);
});
