import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { classifyFailure } from '../../../../lib/operations/classify-failure.js';
import {
  ExtractorOutputError,
  InvalidOperationParamsError,
  TileGridMismatchError,
  UnreadableSourceError,
} from '../../../../lib/operations/errors.js';
import { createPointcloudDtm, ENGINE_ENV, pointcloudDtm } from '../../../../lib/operations/pointcloud-dtm.js';
import { emptyTileArgs } from '../../../../lib/pointcloud/empty-tile-args.js';
import { B, type Call, fakeTools } from '../../../support/dtm-fake-tools.js';
import { groundGrid, lasBytes } from '../../../support/las-bytes.js';

const silent = pino({ level: 'silent' });

/** The extractor's input for the fake tools' source (test/support/dtm-fake-tools.ts). */
const input = (format = 'laz') => ({
  source: '/cache/run-1/source',
  format,
  srs: 'PROJCS[…]',
  sourceBox: [636422.8, 848935.2, 637179.2, 849497.9],
});
const summary = (over: object = {}) => ({
  crs: 'WKT "NAD_1983_HARN_Lambert_Conformal_Conic"',
  inputs: [input()],
  pointsRead: 110_000,
  pointsInBox: 64_985,
  classes: { '1': 48_966, '2': 16_019 },
  selection: 'ground',
  complete: true,
  ...over,
});
const points = { csv: ['/s/points.csv'], vrt: '/s/points.vrt', layer: 'points', count: 12_315 };
const request = (call: Call) => JSON.parse(call.args.at(-1)!);

describe('pointcloud-dtm, local engine (laz-perf + gdal_grid)', () => {
  const local = createPointcloudDtm({ engine: 'local', logger: silent });

  it('extracts the tile points in a child process, then grids them over exactly the tile', async () => {
    const { tools, calls, ctx } = fakeTools(summary({ points }));
    await local.execute(ctx, tools);
    expect(calls.map((c) => c.file)).toEqual([process.execPath, 'gdal_grid']);
    expect(request(calls[0]!)).toEqual({
      mode: 'points',
      sources: [ctx.source],
      tile: { z: 17, x: 20727, y: 47634 },
      radius: 10, // 8 pixels of 1.19 m are less than the 10 m minimum
      outDir: ctx.scratch,
    });
    const grid = calls[1]!.args;
    expect(grid.slice(-2)).toEqual(['/s/points.vrt', ctx.output]);
    expect(grid.slice(grid.indexOf('-txe') + 1, grid.indexOf('-txe') + 3)).toEqual([
      String(B.minX),
      String(B.maxX),
    ]);
    expect(grid[grid.indexOf('-a') + 1]).toContain('radius=10:');
  });

  it('makes an all-nodata tile with gdal_create when nothing is there to interpolate', async () => {
    const { tools, calls, ctx } = fakeTools(summary({ selection: 'none', classes: {}, pointsInBox: 0 }));
    await local.execute(ctx, tools);
    expect(calls.map((c) => c.file)).toEqual([process.execPath, 'gdal_create']);
    expect(calls[1]!.args).toEqual(emptyTileArgs(B, ctx.output));
  });

  it('warps a south-up result north-up onto the tile', async () => {
    const { tools, calls, ctx } = fakeTools(summary({ points }), { southUp: true });
    await local.execute(ctx, tools);
    expect(calls.map((c) => c.file)).toEqual([process.execPath, 'gdal_grid', 'gdalwarp']);
    const warp = calls[2]!.args;
    expect(warp.at(-1)).toBe(ctx.output);
    expect(warp.slice(warp.indexOf('-te') + 1, warp.indexOf('-te') + 5)).toEqual(
      [B.minX, B.minY, B.maxX, B.maxY].map(String),
    );
  });

  it('refuses a raster that is not the tile grid rather than let it be uploaded', async () => {
    const { tools, ctx } = fakeTools(summary({ points }), { size: 257 });
    await expect(local.execute(ctx, tools)).rejects.toThrow(TileGridMismatchError);
  });

  it('fails clearly when the extractor prints something else than its summary', async () => {
    const { tools, ctx } = fakeTools('Segmentation fault\n');
    await expect(local.execute(ctx, tools)).rejects.toThrow(ExtractorOutputError);
    const missing = fakeTools(summary({ points: undefined }));
    await expect(local.execute(missing.ctx, missing.tools)).rejects.toThrow(ExtractorOutputError);
  });

  it('passes a radius parameter through, and refuses a malformed one before any tool runs', async () => {
    const { tools, calls, ctx } = fakeTools(summary({ points }));
    await local.execute({ ...ctx, params: { radius: 25 } }, tools);
    expect(request(calls[0]!).radius).toBe(25);
    const bad = fakeTools(summary({ points }));
    await expect(local.execute({ ...bad.ctx, params: { radius: '-rf' } }, bad.tools)).rejects.toThrow(
      InvalidOperationParamsError,
    );
    expect(bad.calls).toEqual([]);
  });
});

describe('pointcloud-dtm, PDAL engine', () => {
  const pdal = createPointcloudDtm({ engine: 'pdal', logger: silent });

  it('probes the classes, writes one pipeline to scratch and runs `pdal pipeline` on it', async () => {
    const { tools, calls, ctx } = fakeTools(summary({ complete: false }));
    await pdal.execute(ctx, tools);
    expect(calls.map((c) => c.file)).toEqual([process.execPath, 'pdal']);
    expect(request(calls[0]!).mode).toBe('probe');
    expect(calls[1]!.args).toEqual(['pipeline', join(ctx.scratch, 'pipeline.json')]);
    const stages = (calls[1]!.pipeline as { pipeline: { type: string }[] }).pipeline;
    expect(stages.map((s) => s.type)).toEqual([
      'readers.las',
      'filters.crop',
      'filters.range',
      'filters.reprojection',
      'writers.gdal',
    ]);
    expect(stages.at(-1)).toMatchObject({
      filename: ctx.output,
      origin_x: B.minX,
      origin_y: B.minY,
      width: 256,
    });
  });

  it('classifies ground with SMRF for an unclassified COPC file, reading only the nodes near the tile', async () => {
    const { tools, calls, ctx } = fakeTools(
      summary({ inputs: [input('copc')], selection: 'unclassified', classes: { '0': 5000 } }),
    );
    await pdal.execute(ctx, tools);
    const stages = (calls[1]!.pipeline as { pipeline: Record<string, unknown>[] }).pipeline;
    expect(stages[0]).toEqual({
      type: 'readers.copc',
      filename: ctx.source,
      override_srs: 'PROJCS[…]', // the extractor's CRS, the split's
      bounds: '([636422.8, 637179.2], [848935.2, 849497.9])',
    });
    expect(stages.map((s) => s.type)).toContain('filters.smrf');
  });

  it('refuses a waveform point format before any tool runs, as data: PDAL reads it in no form', async () => {
    for (const laz of [true, false]) {
      const { tools, calls, ctx } = fakeTools(summary());
      const source = join(ctx.scratch, laz ? 'wave.laz' : 'wave.las');
      writeFileSync(
        source,
        lasBytes({ minor: 4, format: 9, points: groundGrid(0, 0, 3, 1), epsg: 32610, laz }),
      );
      const error = await pdal.execute({ ...ctx, source }, tools).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(error).toBeInstanceOf(UnreadableSourceError);
      expect(error?.message).toContain('Unsupported LAS input point format: 9.');
      expect(classifyFailure(error)).toBe('data');
      expect(calls).toEqual([]);
    }
  });

  it('skips PDAL when the probe finds nothing to interpolate', async () => {
    const { tools, calls, ctx } = fakeTools(summary({ selection: 'none', classes: { '6': 40 } }));
    await pdal.execute(ctx, tools);
    expect(calls.map((c) => c.file)).toEqual([process.execPath, 'gdal_create']);
  });
});

describe('choosing the engine', () => {
  it('is named pointcloud-dtm', () => {
    expect(pointcloudDtm.name).toBe('pointcloud-dtm');
  });

  it(`honours ${ENGINE_ENV} and refuses values other than pdal, local and auto`, async () => {
    const saved = process.env[ENGINE_ENV];
    try {
      process.env[ENGINE_ENV] = 'local';
      const local = fakeTools(summary({ selection: 'none' }));
      await createPointcloudDtm({ logger: silent }).execute(local.ctx, local.tools);
      expect(request(local.calls[0]!).mode).toBe('points');

      process.env[ENGINE_ENV] = 'pdal';
      const pdal = fakeTools(summary({ selection: 'none' }));
      await createPointcloudDtm({ logger: silent }).execute(pdal.ctx, pdal.tools);
      expect(request(pdal.calls[0]!).mode).toBe('probe');

      process.env[ENGINE_ENV] = 'grass';
      const bad = fakeTools(summary());
      await expect(createPointcloudDtm({ logger: silent }).execute(bad.ctx, bad.tools)).rejects.toThrow(
        InvalidOperationParamsError,
      );
    } finally {
      if (saved === undefined) delete process.env[ENGINE_ENV];
      else process.env[ENGINE_ENV] = saved;
    }
  });
});
