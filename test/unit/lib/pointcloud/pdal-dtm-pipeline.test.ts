import { describe, expect, it } from 'vitest';
import { NODATA, TILE_PIXELS } from '../../../../lib/pointcloud/dtm-grid.js';
import type { ExtractInput } from '../../../../lib/pointcloud/extract-tile-points.js';
import {
  type PdalDtmPipelineOptions,
  pdalDtmPipeline,
} from '../../../../lib/pointcloud/pdal-dtm-pipeline.js';
import { bufferedTile } from '../../../../lib/pointcloud/tile-region.js';

// The pipeline JSON geohub writes, against PDAL's documented options; test/pdal/ runs it on a
// real PDAL 2.8.4 (`npm run test:pdal`).
const { bounds, cell, buffered } = bufferedTile({ z: 17, x: 20727, y: 47634 }, 9.5);
const input: ExtractInput = {
  source: '/scratch/run/source',
  format: 'laz',
  sourceBox: [636422.86, 848935.2, 637179.22, 849497.9],
  srs: 'EPSG:2992',
};
const base: PdalDtmPipelineOptions = {
  inputs: [input],
  bounds,
  buffered,
  radius: 9.5,
  power: 2,
  selection: 'ground',
  output: '/scratch/out/17/20727/47634.tif.ab12.part',
};
const types = (o: PdalDtmPipelineOptions) => pdalDtmPipeline(o).pipeline.map((s) => s.type);
const writer = (o: PdalDtmPipelineOptions) => pdalDtmPipeline(o).pipeline.at(-1)!;

describe('pdalDtmPipeline', () => {
  it('reads, crops to the buffered tile, keeps ground, reprojects, and grids with writers.gdal', () => {
    const { pipeline } = pdalDtmPipeline(base);
    expect(types(base)).toEqual([
      'readers.las',
      'filters.crop',
      'filters.range',
      'filters.reprojection',
      'writers.gdal',
    ]);
    // The CRS the plan used, not whatever PDAL would make of the file's records.
    expect(pipeline[0]).toEqual({ type: 'readers.las', filename: input.source, override_srs: 'EPSG:2992' });
    expect(pipeline[1]).toEqual({
      type: 'filters.crop',
      bounds: `([${buffered.minX}, ${buffered.maxX}], [${buffered.minY}, ${buffered.maxY}])`,
      a_srs: 'EPSG:3857',
    });
    expect(pipeline[2]).toEqual({ type: 'filters.range', limits: 'Classification[2:2]' });
    expect(pipeline[3]).toEqual({ type: 'filters.reprojection', out_srs: 'EPSG:3857' });
  });

  it('writes a 256×256 Float32 GTiff, IDW, nodata -9999, DEFLATE, over exactly the tile', () => {
    const w = writer(base);
    expect(w).toMatchObject({
      type: 'writers.gdal',
      filename: base.output,
      gdaldriver: 'GTiff', // the .part name says nothing about the format
      gdalopts: 'COMPRESS=DEFLATE',
      data_type: 'float32',
      nodata: NODATA,
      output_type: 'idw',
      resolution: cell,
      radius: 9.5,
      power: 2,
      override_srs: 'EPSG:3857',
    });
    expect(w).not.toHaveProperty('bounds');
    // writers.gdal (GDALWriter::initialize/createGrid) turns origin + width/height into a grid of
    // floor((origin + res·(n − .5) − origin) / res) + 1 cells and a geotransform
    // [origin_x, res, 0, origin_y + res·height, 0, −res]: replayed here.
    const res = w.resolution as number;
    const width = Math.floor((res * ((w.width as number) - 0.5)) / res) + 1;
    const height = Math.floor((res * ((w.height as number) - 0.5)) / res) + 1;
    expect([width, height]).toEqual([TILE_PIXELS, TILE_PIXELS]);
    expect(w.origin_x).toBe(bounds.minX);
    expect(w.origin_y).toBe(bounds.minY);
    expect((w.origin_x as number) + res * width).toBeCloseTo(bounds.maxX, 6);
    expect((w.origin_y as number) + res * height).toBeCloseTo(bounds.maxY, 6);
    // With `bounds` the same writer would make floor(extent / res) + 1 = 257 cells.
    expect(Math.floor((bounds.maxX - bounds.minX) / res) + 1).toBe(TILE_PIXELS + 1);
  });

  it('reads a COPC file with readers.copc and bounds in the source CRS, so only nearby nodes load', () => {
    const copc = { ...base, inputs: [{ ...input, format: 'copc' as const }] };
    expect(pdalDtmPipeline(copc).pipeline[0]).toEqual({
      type: 'readers.copc',
      filename: input.source,
      override_srs: 'EPSG:2992',
      bounds: '([636422.86, 637179.22], [848935.2, 849497.9])',
    });
  });

  // The bug it catches: members read one after another without a merge — PDAL would run the crop,
  // SMRF and the gridding once per file, and the last file's raster would overwrite the others'.
  it("merges a collection's members into one cloud before the crop, reprojecting a member in another CRS", () => {
    const east: ExtractInput = { ...input, source: '/scratch/run/members/1', srs: 'EPSG:2994' };
    const same: ExtractInput = { ...input, source: '/scratch/run/members/2' };
    const { pipeline } = pdalDtmPipeline({ ...base, inputs: [input, east, same], selection: 'unclassified' });
    expect(pipeline.slice(0, 5)).toEqual([
      { type: 'readers.las', filename: input.source, override_srs: 'EPSG:2992', tag: 'r0' },
      { type: 'readers.las', filename: east.source, override_srs: 'EPSG:2994', tag: 'r1' },
      { type: 'filters.reprojection', inputs: ['r1'], out_srs: 'EPSG:2992', tag: 'p1' },
      { type: 'readers.las', filename: same.source, override_srs: 'EPSG:2992', tag: 'r2' },
      { type: 'filters.merge', inputs: ['r0', 'p1', 'r2'] },
    ]);
    expect(pipeline.slice(5).map((s) => s.type)).toEqual([
      'filters.crop',
      'filters.smrf',
      'filters.range',
      'filters.reprojection',
      'writers.gdal',
    ]);
    // The job's source CRS is every member's: nothing to reproject before the merge.
    const forced = pdalDtmPipeline({ ...base, inputs: [input, east], sourceSrs: 'EPSG:6557' }).pipeline;
    expect(forced.slice(0, 3).map((s) => [s.type, s.override_srs])).toEqual([
      ['readers.las', 'EPSG:6557'],
      ['readers.las', 'EPSG:6557'],
      ['filters.merge', undefined],
    ]);
  });

  it('classifies ground with SMRF first when the points are unclassified', () => {
    expect(types({ ...base, selection: 'unclassified' })).toEqual([
      'readers.las',
      'filters.crop',
      'filters.smrf',
      'filters.range',
      'filters.reprojection',
      'writers.gdal',
    ]);
  });

  it('is plain JSON: every value a string, number, boolean or list of tags', () => {
    const json = JSON.parse(JSON.stringify(pdalDtmPipeline({ ...base, selection: 'unclassified' })));
    expect(json).toEqual(pdalDtmPipeline({ ...base, selection: 'unclassified' }));
  });
});
