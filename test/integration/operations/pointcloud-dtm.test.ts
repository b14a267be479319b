import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Header } from 'copc/lib/las/header.js';
import { decompressFile } from 'copc/lib/las/point-data.js';
import { View } from 'copc/lib/las/view.js';
import proj4 from 'proj4';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ToolRunner } from '../../../lib/operations/operation.js';
import { createPointcloudDtm } from '../../../lib/operations/pointcloud-dtm.js';
import { findExecutable } from '../../../lib/pointcloud/find-executable.js';
import { type LazPerfModule, loadLazPerf } from '../../../lib/pointcloud/load-laz-perf.js';
import { northUpWarpArgs } from '../../../lib/pointcloud/north-up-warp-args.js';
import { ToolCancelledError } from '../../../lib/process/errors.js';
import { isAlive } from '../../../lib/process/process-table.js';
import { runProcess } from '../../../lib/process/run-process.js';
import { tileBounds } from '../../../lib/tiling/tile-bounds.js';
import { expectTileRaster, gdalinfo, lasFacts, pixels, tileAt } from '../../support/dtm-tile-checks.js';
import { groundGrid, lasBytes } from '../../support/las-bytes.js';
import { tempDir } from '../../support/temp-dir.js';

const run = promisify(execFile);
const AUTZEN = new URL('../../../examples/pointcloud/autzen_trim.laz', import.meta.url).pathname;
const ZOOM = 17;

// Real tools: the extractor (node + laz-perf) and GDAL. PDAL is not installed here, so `auto` picks
// the local engine; the test forces it so that a machine with PDAL still tests this engine.
const operation = createPointcloudDtm({ engine: 'local' });
const started: { file: string; pid: number }[] = [];
const timings: { tile: string; ms: number; tools: Record<string, number> }[] = [];

function toolRunner(perTool: Record<string, number>, signal?: AbortSignal): ToolRunner {
  return {
    async run(file, args) {
      const t0 = performance.now();
      try {
        return await runProcess(file, args, {
          signal,
          timeoutMs: 60_000,
          graceMs: 2_000,
          onSpawn: (pid) => started.push({ file, pid }),
        });
      } finally {
        const name = file === process.execPath ? 'extractor' : file;
        perTool[name] = Math.round((perTool[name] ?? 0) + performance.now() - t0);
      }
    },
  };
}

afterEach(() => {
  // Every tool process (and its group) is gone once execute() settles.
  expect(started.filter(({ pid }) => isAlive(pid))).toEqual([]);
});

let tiles: { x: number; y: number }[];
let groundZ: readonly [number, number];

beforeAll(async () => {
  const bytes = new Uint8Array(readFileSync(AUTZEN));
  const facts = lasFacts(bytes);
  // NAD83(HARN) / Oregon Lambert in international feet, as its WKT VLR says.
  expect(facts.wkt).toMatch(/Lambert_Conformal_Conic.*UNIT\["foot",0\.3048/);
  const toLonLat = proj4(facts.wkt, 'EPSG:4326');
  const [west, south] = toLonLat.forward([facts.min[0], facts.min[1]]);
  const [east, north] = toLonLat.forward([facts.max[0], facts.max[1]]);
  const nw = tileAt(west!, north!, ZOOM);
  const se = tileAt(east!, south!, ZOOM);
  const all: { x: number; y: number }[] = [];
  for (let x = nw.x; x <= se.x; x += 1) for (let y = nw.y; y <= se.y; y += 1) all.push({ x, y });
  // A z17 tile is ≈ 220 m across here; Autzen is ≈ 360 m × 170 m: a handful of tiles.
  expect(all.length).toBeGreaterThanOrEqual(2);
  expect(all.length).toBeLessThanOrEqual(9);
  const centre = tileAt((west! + east!) / 2, (south! + north!) / 2, ZOOM);
  tiles = [centre, ...all.filter((t) => t.x !== centre.x || t.y !== centre.y)].slice(0, 3);

  // The Z range of the ground points (class 2), decoded by the copc package's own reader.
  const lazPerf: LazPerfModule = await loadLazPerf();
  const header = Header.parse(bytes);
  const view = View.create(await decompressFile(bytes, lazPerf as never), header);
  const classification = view.getter('Classification');
  const z = view.getter('Z');
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < view.pointCount; i += 1) {
    if (classification(i) !== 2) continue;
    min = Math.min(min, z(i));
    max = Math.max(max, z(i));
  }
  groundZ = [min, max];
  expect(groundZ[0]).toBeCloseTo(406.26, 2); // feet: the Willamette valley floor in Eugene
});

async function makeTile(x: number, y: number) {
  const scratch = tempDir('geohub-dtm-');
  const output = join(scratch, `${y}.tif.0a1b2c3d.part`);
  const perTool: Record<string, number> = {};
  const t0 = performance.now();
  await operation.execute(
    {
      source: AUTZEN,
      tile: { id: '00000000000000aa', z: ZOOM, x, y },
      params: { zoom: ZOOM },
      output,
      scratch,
    },
    toolRunner(perTool),
  );
  timings.push({ tile: `${ZOOM}/${x}/${y}`, ms: Math.round(performance.now() - t0), tools: perTool });
  return { output, info: await gdalinfo(output) };
}

describe('pointcloud-dtm, local engine, on autzen_trim.laz', () => {
  it('is the engine chosen here, where PDAL is not installed', async () => {
    expect(await findExecutable('pdal')).toBeUndefined();
  });

  it('makes a DTM tile for each of 2–3 tiles over the cloud: the tile grid, ground elevations only', async () => {
    expect(tiles.length).toBeGreaterThanOrEqual(2);
    for (const [i, { x, y }] of tiles.entries()) {
      const { info } = await makeTile(x, y);
      expectTileRaster(info, ZOOM, x, y);
      const band = info.bands[0]!;
      const valid = Number(band.metadata['']?.STATISTICS_VALID_PERCENT);
      expect(valid).toBeGreaterThan(i === 0 ? 25 : 0); // the tile at the cloud's centre is well covered
      // Interpolated from ground points only: never outside their range (feet, as in the file).
      expect(band.minimum).toBeGreaterThanOrEqual(groundZ[0] - 1e-3);
      expect(band.maximum).toBeLessThanOrEqual(groundZ[1] + 1e-3);
    }
    process.stdout.write(`pointcloud-dtm local engine timings: ${JSON.stringify(timings)}\n`);
  });

  it('makes a valid all-nodata tile for a tile outside the cloud', async () => {
    const x = tiles[0]!.x + 10;
    const { y } = tiles[0]!;
    const { info } = await makeTile(x, y);
    expectTileRaster(info, ZOOM, x, y);
    expect(Number(info.bands[0]!.metadata['']?.STATISTICS_VALID_PERCENT ?? 0)).toBe(0);
  });
});

describe('pointcloud-dtm, local engine, in a westing/southing CRS', () => {
  it('grids a South African Lo19 cloud (ESRI WKT, x a westing, y a southing) on its tile in the south', async () => {
    // 80 m of ground around westing 10000, southing 3700000: 18.8925°E 33.4260°S (gdaltransform).
    const dir = tempDir('geohub-lo19-');
    const source = join(dir, 'source');
    const wkt = readFileSync(new URL('../../fixtures/crs/epsg-2048.esri.wkt', import.meta.url), 'utf8');
    writeFileSync(source, lasBytes({ minor: 4, format: 6, points: groundGrid(9960, 3699960, 41, 2), wkt }));
    const { x, y } = tileAt(18.8924749145801, -33.4259988388173, ZOOM);
    const output = join(dir, `${y}.tif.0a1b2c3d.part`);
    await operation.execute(
      {
        source,
        tile: { id: '00000000000000ab', z: ZOOM, x, y },
        params: { zoom: ZOOM },
        output,
        scratch: dir,
      },
      toolRunner({}),
    );
    const info = await gdalinfo(output);
    expectTileRaster(info, ZOOM, x, y);
    const band = info.bands[0]!;
    // Read with the wrong axes, the points would be in the northern hemisphere: an all-nodata tile.
    expect(Number(band.metadata['']?.STATISTICS_VALID_PERCENT)).toBeGreaterThan(1);
    expect(band.minimum).toBeGreaterThanOrEqual(100 - 1e-3);
    expect(band.maximum).toBeLessThanOrEqual(100 + 40 * 0.15 + 1e-3);
  });
});

describe('pointcloud-dtm, the rest of its real tool work', () => {
  it('turns a south-up tile north-up with gdalwarp, every row moved and no value resampled', async () => {
    const { x, y } = tiles[0]!;
    const { output } = await makeTile(x, y);
    const b = tileBounds(ZOOM, x, y);
    const dir = tempDir('geohub-flip-');
    // The same pixel rows, georeferenced from the south edge up: what gdal_grid wrote in GDAL 3.6
    // for a layer without points.
    const southUp = join(dir, 'south-up.tif');
    await run('gdal_translate', [
      '-q',
      '-a_ullr',
      ...[b.minX, b.minY, b.maxX, b.maxY].map(String),
      output,
      southUp,
    ]);
    expect((await gdalinfo(southUp)).geoTransform[5]).toBeGreaterThan(0);
    const northUp = join(dir, 'north-up.tif.part');
    await run('gdalwarp', northUpWarpArgs(southUp, b, northUp));
    const info = await gdalinfo(northUp);
    expectTileRaster(info, ZOOM, x, y);
    const [before, after] = [await pixels(southUp), await pixels(northUp)];
    for (let row = 0; row < 256; row += 1) {
      expect(after.subarray(row * 256, row * 256 + 256)).toEqual(
        before.subarray((255 - row) * 256, (256 - row) * 256),
      );
    }
  });

  it('stops with the attempt: a cancel terminates the extractor and leaves no process', async () => {
    const { x, y } = tiles[0]!;
    const scratch = tempDir('geohub-dtm-');
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('run cancelled')), 150);
    await expect(
      operation.execute(
        {
          source: AUTZEN,
          tile: { id: '00000000000000ab', z: ZOOM, x, y },
          params: {},
          output: join(scratch, 'x.tif.part'),
          scratch,
        },
        toolRunner({}, controller.signal),
      ),
    ).rejects.toThrow(ToolCancelledError);
  });
});
