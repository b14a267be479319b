import { describe, expect, it } from 'vitest';
import type { PointCloudHeader, RasterHeader } from '../../../../lib/source/source-header.js';
import {
  METATILE_BUDGET_SECONDS,
  metatileSize,
  POINTCLOUD_TILE_START_SECONDS,
  POINTS_PER_SECOND,
  RASTER_SAMPLES_PER_SECOND,
} from '../../../../lib/split/metatile-size.js';
import type { Bbox } from '../../../../lib/tiling/bbox.js';
import { nativeZoom } from '../../../../lib/tiling/native-zoom.js';

function raster(width: number, height: number, bands: number): RasterHeader {
  return {
    kind: 'raster',
    format: 'bigtiff',
    bytes: 1,
    width,
    height,
    bands,
    dataType: 'Byte',
    nodata: null,
    tiled: true,
    geoTransform: undefined,
    corners: undefined,
    bbox: undefined,
    crs: undefined,
  };
}

function cloud(pointCount: number, format: PointCloudHeader['format'] = 'laz'): PointCloudHeader {
  return {
    kind: 'pointcloud',
    format,
    bytes: 1,
    version: '1.4',
    pointFormat: 6,
    pointCount,
    scale: [0.01, 0.01, 0.01],
    offset: [0, 0, 0],
    bbox: [0, 0, 1, 1],
    zRange: [0, 1],
    crs: undefined,
  };
}

/** A square footprint of `side` metres in EPSG:3857. */
const square = (side: number): Bbox => [0, 0, side, side];

describe('metatileSize: one metatile’s work within a quarter of the spot warning', () => {
  it('a raster at its native zoom: the full 4×4 block', () => {
    // The bench raster: 4096² Byte pixels, ~2.4 m each.
    const footprint = square(4096 * 2.4);
    expect(metatileSize(raster(4096, 4096, 1), { zoom: nativeZoom(2.4), bbox3857: footprint })).toMatchObject(
      {
        tilesPerMessage: 16,
      },
    );
    // A 60,000² RGB raster (10.8 G samples, ~18 minutes to read whole) at its native zoom too.
    expect(
      metatileSize(raster(60_000, 60_000, 3), { zoom: nativeZoom(10), bbox3857: square(600_000) }),
    ).toMatchObject({ tilesPerMessage: 16 });
  });

  it('the same big raster far below its native zoom: smaller metatiles, down to one sub-tile', () => {
    const big = raster(60_000, 60_000, 3);
    const sizes = [9, 10, 11, 12].map((zoom) => metatileSize(big, { zoom, bbox3857: square(600_000) }));
    expect(sizes.map((s) => s.tilesPerMessage)).toEqual([1, 6, 16, 16]);
    // What it was sized by: the share of the source under one tile, read at the assumed rate.
    const tile9 = (2 * 20037508.342789244) / 2 ** 9;
    expect(sizes[0]!.secondsPerTile).toBeCloseTo(
      (60_000 * 60_000 * 3 * (tile9 * tile9)) / (600_000 * 600_000) / RASTER_SAMPLES_PER_SECOND,
      6,
    );
  });

  it('a dense COPC cloud gridded coarsely reads more points per tile: fewer sub-tiles', () => {
    const dense = cloud(2_000_000_000, 'copc');
    expect(metatileSize(dense, { zoom: 17, bbox3857: square(50_000) }).tilesPerMessage).toBe(16);
    expect(metatileSize(dense, { zoom: 10, bbox3857: square(50_000) }).tilesPerMessage).toBe(1);
  });

  it('a plain LAS/LAZ sub-tile reads the whole file and starts its own processes: sized by both', () => {
    // autzen_trim.laz (110,000 points): a start and a small read per sub-tile, the whole 4×4 block.
    const small = metatileSize(cloud(110_000), { zoom: 17, bbox3857: square(1_000) });
    expect(small.tilesPerMessage).toBe(16);
    expect(small.secondsPerTile).toBeCloseTo(POINTCLOUD_TILE_START_SECONDS + 110_000 / POINTS_PER_SECOND, 6);
    // The bench's worst case: 3 M unclassified points, every one read by every sub-tile, even at
    // a fine zoom where a COPC file of the same points would read a sliver.
    const dense = metatileSize(cloud(3_000_000), { zoom: 20, bbox3857: square(300) });
    const perTile = POINTCLOUD_TILE_START_SECONDS + 3_000_000 / POINTS_PER_SECOND;
    expect(dense.secondsPerTile).toBeCloseTo(perTile, 6);
    expect(dense.tilesPerMessage).toBe(Math.floor(METATILE_BUDGET_SECONDS / perTile));
    expect(dense.tilesPerMessage * dense.secondsPerTile).toBeLessThanOrEqual(METATILE_BUDGET_SECONDS);
    expect(metatileSize(cloud(3_000_000, 'copc'), { zoom: 20, bbox3857: square(300) }).tilesPerMessage).toBe(
      16,
    );
  });

  it('never over the deployment’s cap (GEOHUB_TILES_PER_MESSAGE)', () => {
    expect(metatileSize(raster(256, 256, 1), { zoom: 10, bbox3857: square(10_000) }, 4).tilesPerMessage).toBe(
      4,
    );
  });
});
