import { MAX_TILES_PER_MESSAGE } from '../model/metatile.js';
import type { SourceHeader } from '../source/source-header.js';
import type { Bbox } from '../tiling/bbox.js';
import { WORLD_SIZE } from '../tiling/web-mercator.js';

/**
 * The tool work one metatile may plan for: a quarter of the 2-minute spot warning, so that a
 * metatile in flight at the warning still ends, uploads and marks its tiles before the task is
 * stopped (docs/architecture.md#metatiles).
 */
export const METATILE_BUDGET_SECONDS = 30;

/**
 * What one GDAL or PDAL process gets through, taken low on purpose (a slow vCPU, a compressed
 * Float64 source read by ranges from S3, no overviews): a raster's samples (pixels × bands) read
 * and warped per second, and a point cloud's points read and gridded per second. On the bench
 * machine a Byte metatile at native zoom went at ~20 M samples/s.
 */
export const RASTER_SAMPLES_PER_SECOND = 10_000_000;
/**
 * Points per second through one point-cloud sub-tile at its worst: an unclassified cloud, whose
 * ground PDAL finds with SMRF, read twice (the extractor's probe, then PDAL's reader). Measured by
 * `npm run bench` (bench/pdal-engines.ts: a 3 M-point cloud in one sub-tile went at ~0.5 M/s, its
 * start-up included, on the bench machine, docs/benchmarks.md), taken lower for a slower vCPU.
 */
export const POINTS_PER_SECOND = 250_000;
/**
 * A point-cloud sub-tile's cost before its points: the extractor (a Node process) and the tool
 * (PDAL, or gdal_grid) each start anew per sub-tile: a sub-tile of autzen_trim.laz (110,000
 * points) took ~1.3 s on the bench machine, nearly all of it start-up.
 */
export const POINTCLOUD_TILE_START_SECONDS = 1.2;

export interface MetatileSize {
  /** Sub-tiles per message: the metatile a worker claims, warps in one process and marks at once. */
  readonly tilesPerMessage: number;
  /** The estimate it was sized by: one sub-tile's tool seconds. */
  readonly secondsPerTile: number;
}

/**
 * How many sub-tiles a message holds for this job, so that one metatile's work stays within
 * METATILE_BUDGET_SECONDS. A sub-tile's work is the source it reads: the samples (or points)
 * under its footprint, never more than the whole source, since one warp reads each source pixel
 * once however many tiles it cuts. At the native zoom that is about one tile's worth of pixels,
 * and the message holds the full 4×4 block; a job far below the native zoom (a coarse overview
 * of a big raster) reads far more per tile and gets smaller metatiles, down to one sub-tile.
 * A point-cloud sub-tile is its own processes (a start-up each) reading its points: the ones
 * near the tile from COPC, the whole file from plain LAS/LAZ; a dense cloud gets smaller
 * metatiles. `max` is the deployment's cap (GEOHUB_TILES_PER_MESSAGE).
 */
export function metatileSize(
  header: SourceHeader,
  plan: { readonly zoom: number; readonly bbox3857: Bbox },
  max: number = MAX_TILES_PER_MESSAGE,
): MetatileSize {
  const [minX, minY, maxX, maxY] = plan.bbox3857;
  const footprint = Math.max((maxX - minX) * (maxY - minY), Number.MIN_VALUE);
  const tileSide = WORLD_SIZE / 2 ** plan.zoom;
  // The share of the source under one tile: all of it when the tile is larger than the footprint.
  const share = Math.min(1, (tileSide * tileSide) / footprint);
  if (header.kind === 'pointcloud') {
    // Every sub-tile starts its own processes, and only COPC lets them read just the points near
    // the tile: a plain LAS/LAZ file is streamed past whole by each sub-tile's extractor and reader.
    const pointsRead = header.format === 'copc' ? header.pointCount * share : header.pointCount;
    const secondsPerTile = POINTCLOUD_TILE_START_SECONDS + pointsRead / POINTS_PER_SECOND;
    const fits = Math.floor(METATILE_BUDGET_SECONDS / secondsPerTile);
    return { tilesPerMessage: Math.max(1, Math.min(max, fits)), secondsPerTile };
  }
  const wholeSource = (header.width * header.height * header.bands) / RASTER_SAMPLES_PER_SECOND;
  const secondsPerTile = wholeSource * share;
  // A metatile never reads more than the whole source: a source read within the budget fits whole.
  const fits =
    wholeSource <= METATILE_BUDGET_SECONDS
      ? max
      : Math.floor(METATILE_BUDGET_SECONDS / Math.max(secondsPerTile, Number.MIN_VALUE));
  return { tilesPerMessage: Math.max(1, Math.min(max, fits)), secondsPerTile };
}
