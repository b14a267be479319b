import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TileTask } from '../../../lib/model/tile.js';
import type { ToolRunner } from '../../../lib/operations/operation.js';
import { rasterXyz, rasterXyzArgs } from '../../../lib/operations/raster-xyz.js';
import { readRasterGrid } from '../../../lib/pointcloud/read-raster-grid.js';
import { runProcess } from '../../../lib/process/run-process.js';
import { DEFAULT_GDAL_PYTHON, metatileCommand } from '../../../worker/metatile-command.js';
import { approximationFigures } from '../../support/approximation-check.js';
import { gdalInfos } from '../../support/gdal-info.js';
import { maxPixelDifference, readTilePixels } from '../../support/raster-pixels.js';
import { gdalTileCover } from '../../support/tile-oracle.js';

const RGB = new URL('../../../examples/raster/RGB.byte.tif', import.meta.url).pathname;
// Inside the repository (a clone has no ../shared beside it): test/fixtures/README.md says where from.
const FLOAT_NODATA = new URL('../../fixtures/raster/float_raster_with_nodata.tif', import.meta.url).pathname;
const SHADE = new URL('../../../examples/raster/shade.tif', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'geohub-metatile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const gdal = (tool: string, args: string[]) => execFileSync(tool, ['-q', ...args], { stdio: 'pipe' });
const python = (code: string) => execFileSync(DEFAULT_GDAL_PYTHON, ['-c', code], { stdio: 'pipe' });

/**
 * What a viewer reads from each tile besides its pixels, as `gdalinfo -json` reports it: the CRS,
 * the metadata, each band's colour interpretation, colour table, nodata, scale, offset, unit,
 * description and metadata. Not the image structure: per-tile gdalwarp writes strips.
 */
function described(files: readonly string[]): Map<string, unknown> {
  const infos = gdalInfos<{
    coordinateSystem?: { wkt?: string };
    metadata?: Record<string, Record<string, string>>;
    bands: Record<string, unknown>[];
  }>(files);
  return new Map(
    [...infos].map(([file, info]) => [
      file,
      {
        crs: info.coordinateSystem?.wkt,
        metadata: info.metadata?.[''],
        bands: info.bands.map((b) => ({
          colorInterpretation: b.colorInterpretation,
          colorTable: b.colorTable,
          noDataValue: b.noDataValue,
          scale: b.scale,
          offset: b.offset,
          unit: b.unit,
          description: b.description,
          metadata: (b.metadata as Record<string, unknown> | undefined)?.[''],
        })),
      },
    ]),
  );
}

/** Sources of every kind the engine must handle, made from the sample data with GDAL. */
const sources: Record<string, () => string> = {
  'Byte RGB, nodata 0 (UTM 18N)': () => RGB,
  'Byte RGBA with an alpha band (UTM 18N)': () => {
    const out = join(dir, 'rgba.tif');
    gdal('gdalwarp', ['-dstalpha', '-srcnodata', '0', RGB, out]);
    return out;
  },
  'Int16, nodata -9999': () => {
    const out = join(dir, 'int16.tif');
    gdal('gdal_translate', [
      '-b',
      '1',
      '-ot',
      'Int16',
      '-scale',
      '0',
      '255',
      '-3000',
      '3000',
      '-a_nodata',
      '-9999',
      RGB,
      out,
    ]);
    return out;
  },
  'UInt16, no nodata': () => {
    const out = join(dir, 'uint16.tif');
    gdal('gdal_translate', ['-b', '2', '-ot', 'UInt16', '-scale', '0', '255', '0', '60000', RGB, out]);
    return out;
  },
  'Float32 with nodata (sample data, CRS assigned)': () => {
    const out = join(dir, 'float32.tif');
    // The sample has no CRS: placed on the UTM grid of RGB.byte.tif so that it can be warped.
    gdal('gdal_translate', [
      '-a_srs',
      'EPSG:32618',
      '-a_ullr',
      '300000',
      '2800000',
      '306500',
      '2794000',
      FLOAT_NODATA,
      out,
    ]);
    return out;
  },
  'Byte with a colour table (palette)': () => {
    const out = join(dir, 'palette.tif');
    gdal('gdal_translate', ['-b', '1', RGB, out]);
    python(
      `from osgeo import gdal
ds = gdal.Open(${JSON.stringify(out)}, gdal.GA_Update)
table = gdal.ColorTable()
for i in range(256):
    table.SetColorEntry(i, (i, 255 - i, (i * 7) % 256, 255))
band = ds.GetRasterBand(1)
band.SetColorTable(table)
band.SetColorInterpretation(gdal.GCI_PaletteIndex)
band.SetNoDataValue(0)`,
    );
    return out;
  },
  'Int16 with scale, offset, unit, description and metadata (as an agency writes a DEM)': () => {
    const out = join(dir, 'dem.tif');
    gdal('gdal_translate', [
      ...['-b', '1', '-ot', 'Int16', '-scale', '0', '255', '0', '3000', '-a_nodata', '-32768'],
      ...['-a_scale', '0.5', '-a_offset', '10', '-mo', 'AREA_OR_POINT=Point', '-mo', 'PRODUCER=IGN'],
      RGB,
      out,
    ]);
    python(
      `from osgeo import gdal
ds = gdal.Open(${JSON.stringify(out)}, gdal.GA_Update)
band = ds.GetRasterBand(1)
band.SetUnitType("m")
band.SetDescription("elevation")
band.SetMetadata({"VERTICAL_DATUM": "NGF-IGN69"})`,
    );
    return out;
  },
  'Float64 (Web Mercator)': () => {
    const out = join(dir, 'float64.tif');
    gdal('gdal_translate', ['-ot', 'Float64', '-a_nodata', 'none', SHADE, out]);
    return out;
  },
};

const tools = (cwd: string): ToolRunner => ({
  run: (file, args, options) =>
    runProcess(file, args, { timeoutMs: 60_000, graceMs: 2_000, cwd, input: options?.input }),
});

/**
 * GDAL's error threshold (0.125 of a source pixel) in the tile's pixels. Every source here has a
 * metric CRS; Web Mercator stretches metres by 1/cos(latitude), under 1.2 at these sources.
 */
function maxShiftPx(sourceRes: number, tile: { geoTransform: readonly number[] }): number {
  return 0.125 * Math.max(1, (1.2 * Math.abs(sourceRes)) / Math.abs(tile.geoTransform[1]!));
}

/** Up to 4×4 tiles of the cover, starting at its top-left (first) or bottom-right (last) corner. */
function block(cover: { z: number; x: number; y: number }[], corner: 'first' | 'last'): TileTask[] {
  const xs = cover.map((t) => t.x);
  const ys = cover.map((t) => t.y);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const x0 = corner === 'first' ? minX : maxX - ((maxX - minX) % 4);
  const y0 = corner === 'first' ? minY : maxY - ((maxY - minY) % 4);
  return cover
    .filter((t) => t.x >= x0 && t.x < x0 + 4 && t.y >= y0 && t.y < y0 + 4)
    .map((t, i) => ({ ...t, id: i.toString(16).padStart(16, '0') }));
}

describe('metatile engine: one GDAL process per block, tiles identical to per-tile gdalwarp -et 0', () => {
  for (const [name, make] of Object.entries(sources)) {
    it(`${name}: a full block and an edge block, pixel by pixel (exact transformer); approximate within its error`, async () => {
      const source = make();
      // A zoom where the raster spans more than 4 tiles each way: corners are partly outside it.
      let zoom = 8;
      while (gdalTileCover(source, zoom).length < 25) zoom += 1;
      const cover = gdalTileCover(source, zoom);
      const sourceRes = (await readRasterGrid(source)).geoTransform[1]!;
      let worst = 0;
      for (const corner of ['first', 'last'] as const) {
        const tiles = block(cover, corner);
        const out = mkdtempSync(join(dir, `${corner}-`));
        const starts: number[] = [];
        const blockOf = (prefix: string, transformer: string) =>
          rasterXyz.executeBlock!(
            {
              source,
              tiles: tiles.map((tile) => ({ tile, output: join(out, `${prefix}-${tile.x}-${tile.y}.tif`) })),
              params: { resampling: 'bilinear', transformer },
              scratch: out,
              engine: metatileCommand(DEFAULT_GDAL_PYTHON),
            },
            {
              run: (file, args, options) =>
                runProcess(file, args, {
                  timeoutMs: 60_000,
                  graceMs: 2_000,
                  cwd: out,
                  input: options?.input,
                  onSpawn: (p) => starts.push(p),
                }),
            },
          );
        await blockOf('meta', 'exact');
        expect(starts).toHaveLength(1); // the whole block in one process
        // The default: GDAL's approximate transformer, as gdalwarp and gdal2tiles use it.
        await blockOf('approx', 'approximate');
        // The oracle: one gdalwarp per tile, as the raw tool runs (side by side, as xargs -P would).
        const singleOf = (tile: TileTask) => join(out, `single-${tile.x}-${tile.y}.tif`);
        const metaOf = (tile: TileTask) => join(out, `meta-${tile.x}-${tile.y}.tif`);
        await Promise.all(
          tiles.map((tile) => {
            const params = { resampling: 'bilinear', transformer: 'exact' };
            const ctx = { source, tile, params, output: singleOf(tile), scratch: out };
            return tools(out).run('gdalwarp', rasterXyzArgs(ctx));
          }),
        );
        const descriptions = described([...tiles.map(singleOf), ...tiles.map(metaOf)]);
        for (const tile of tiles) {
          const single = singleOf(tile);
          const meta = await readTilePixels(metaOf(tile));
          const ref = await readTilePixels(single);
          expect([meta.width, meta.height]).toEqual([256, 256]);
          expect(meta.bands.length).toBe(ref.bands.length);
          expect([meta.sampleFormat, meta.bitsPerSample]).toEqual([ref.sampleFormat, ref.bitsPerSample]);
          expect(meta.nodata).toBe(ref.nodata);
          expect(meta.extraSamples).toEqual(ref.extraSamples);
          expect(descriptions.get(metaOf(tile))).toEqual(descriptions.get(single));
          for (const [i, v] of meta.geoTransform.entries())
            expect(Math.abs(v - ref.geoTransform[i]!)).toBeLessThan(1e-6 * Math.max(1, Math.abs(v)));
          // Floats may differ in the last bits of the working precision; integers not at all.
          expect(maxPixelDifference(meta, ref)).toBeLessThanOrEqual(meta.sampleFormat === 3 ? 1e-3 : 0);
          // Lean: one 256×256 block, DEFLATE (8), the predictor of the type (2 integers, 3 floats).
          expect([meta.tileWidth, meta.tileHeight, meta.compression]).toEqual([256, 256, 8]);
          expect(meta.predictor).toBe(meta.sampleFormat === 3 ? 3 : 2);
          // Approximated: every value is one the exact tile takes around that pixel.
          const approx = await readTilePixels(join(out, `approx-${tile.x}-${tile.y}.tif`));
          const figures = approximationFigures(approx, ref, maxShiftPx(sourceRes, ref));
          expect(figures.nodataAway, `${name} ${tile.x}/${tile.y}`).toBe(0);
          // At most one pixel in 10,000 (source nodata inside the kernel, approximation-check.ts).
          expect(figures.beyond, `${name} ${tile.x}/${tile.y}`).toBeLessThanOrEqual(
            figures.compared / 10_000,
          );
          worst = Math.max(worst, figures.maxDifference);
        }
        // Not a comparison of empty tiles: the block holds data.
        const pixels = await Promise.all(tiles.map((t) => readTilePixels(metaOf(t))));
        expect(
          pixels.some((p) => Array.from(p.bands[0]!).some((v) => v !== p.nodata && !Number.isNaN(v))),
        ).toBe(true);
        expect(readdirSync(out).filter((n) => n.startsWith('meta-'))).toHaveLength(tiles.length);
        expect(readdirSync(out).filter((n) => n.startsWith('approx-'))).toHaveLength(tiles.length);
      }
      console.log(`${name}: approximate vs exact, largest difference ${worst}`);
    });
  }
});
