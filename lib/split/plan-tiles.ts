import type { SourceHeader } from '../source/source-header.js';
import { type Bbox, bboxCorners, hasArea } from '../tiling/bbox.js';
import { checkCrsBounds } from '../tiling/check-crs-bounds.js';
import type { CrsRef } from '../tiling/crs-ref.js';
import { UnsupportedCrsError } from '../tiling/errors.js';
import { nativeZoom } from '../tiling/native-zoom.js';
import { reprojectFootprint } from '../tiling/reproject-footprint.js';
import { type ResolvedCrs, resolveCrs } from '../tiling/resolve-crs.js';
import { sourceCrsOverride } from '../tiling/source-crs-override.js';
import { type TileRange, tileCount } from '../tiling/tile-range.js';
import { tileRanges } from '../tiling/tile-ranges.js';
import { EmptyFootprintError, MissingCrsError, NotGeoreferencedError, TooManyTilesError } from './errors.js';
import { MAX_JOB_ZOOM } from './job-params.js';

/** Default cap on sub-tiles per run: a million must work, ten million is a mistake (docs/architecture.md, "Defaults and models"). */
export const DEFAULT_MAX_TILES = 1_000_000;

export interface TilePlan {
  /** The CRS the footprint was reprojected from, as a label. */
  readonly crs: string;
  /** What the planning could not reproduce exactly (PROJ's best operation uses a grid): for the run. */
  readonly warnings: readonly string[];
  /**
   * The source footprint in EPSG:3857, clamped to the Mercator latitudes; x runs past ±20037508 m
   * when the source crosses the antimeridian.
   */
  readonly bbox3857: Bbox;
  /** The source's resolution in EPSG:3857 metres per pixel (point clouds: mean point spacing). */
  readonly resolution: number;
  readonly nativeZoom: number;
  readonly zoom: number;
  /** One tile range, or two when the footprint crosses the antimeridian (east end, then west end). */
  readonly ranges: readonly TileRange[];
  readonly total: number;
}

const fmt = (n: number) => n.toLocaleString('en-US');

/**
 * The source's resolution in EPSG:3857: for a raster, the footprint's diagonal over the pixel
 * diagonal (what gdalwarp suggests for an output in that CRS); for a point cloud, the mean point
 * spacing, √(area / points), so a DTM cell holds about one point.
 */
function resolutionOf(header: SourceHeader, bbox: Bbox): number {
  const width = bbox[2] - bbox[0];
  const height = bbox[3] - bbox[1];
  if (header.kind === 'raster') return Math.hypot(width, height) / Math.hypot(header.width, header.height);
  return Math.sqrt((width * height) / header.pointCount);
}

/** The job's source CRS override as a CRS reference; a failure names the file. */
function overrideIn(sourceCrs: string, where: string): CrsRef {
  try {
    return sourceCrsOverride(sourceCrs);
  } catch (error) {
    throw new UnsupportedCrsError(`${where}: ${(error as Error).message}`, { cause: error });
  }
}

/** The resolved CRS; a failure names the file as well as the CRS and what cannot be reprojected. */
function resolveIn(ref: CrsRef, where: string): ResolvedCrs {
  try {
    return resolveCrs(ref);
  } catch (error) {
    if (!(error instanceof UnsupportedCrsError)) throw error;
    throw new UnsupportedCrsError(`${where}: ${error.message}`, { cause: error });
  }
}

/**
 * Where a source lands on the XYZ grid and how many sub-tiles that makes: CRS → footprint in
 * EPSG:3857 → zoom (requested, else native) → tile range. Pure: no I/O, so `geohub plan` and the
 * split Lambda agree by construction. `sourceCrs` (the job's override: EPSG:<code>, PROJ or WKT)
 * replaces whatever CRS the file says, as `gdalwarp -s_srs` does.
 */
export function planTiles(
  header: SourceHeader,
  requestedZoom: number | undefined,
  where: string,
  maxTiles = DEFAULT_MAX_TILES,
  sourceCrs?: string,
): TilePlan {
  const crsRef = sourceCrs === undefined ? header.crs : overrideIn(sourceCrs, where);
  if (!crsRef) {
    throw new MissingCrsError(
      header.kind === 'raster'
        ? `${where} has no coordinate reference system (no GeoKeys): assign one, e.g. gdal_translate -a_srs EPSG:xxxx`
        : `${where} has no coordinate reference system (no GeoKeyDirectory or OGC WKT VLR): assign one, ` +
            'e.g. pdal translate --writers.las.a_srs=EPSG:xxxx',
    );
  }
  const ring = header.kind === 'raster' ? header.corners : bboxCorners(header.bbox);
  if (!ring) {
    throw new NotGeoreferencedError(
      `${where} has a CRS but no geotransform: its pixels have no map position`,
    );
  }
  if (header.kind === 'pointcloud' && header.pointCount === 0) {
    throw new EmptyFootprintError(`${where} has no points: nothing to grid`);
  }
  const crs = resolveIn(crsRef, where);
  checkCrsBounds(ring, crs, where);
  const bbox3857 = reprojectFootprint(ring, crs);
  if (!bbox3857 || !hasArea(bbox3857)) {
    throw new EmptyFootprintError(
      `${where} covers no area of the Web Mercator map (its footprint in ${crs.label} is ` +
        `${(header.bbox ?? []).join(', ')}; EPSG:3857 covers latitudes ±85.05° only)`,
    );
  }
  const resolution = resolutionOf(header, bbox3857);
  const native = nativeZoom(resolution, 0, MAX_JOB_ZOOM);
  const zoom = requestedZoom ?? native;
  const ranges = tileRanges(bbox3857, zoom);
  if (ranges.length === 0) {
    throw new EmptyFootprintError(
      `${where} covers no tile at zoom ${zoom} (its footprint is thinner than a tile pixel)`,
    );
  }
  const total = ranges.reduce((sum, range) => sum + tileCount(range), 0);
  if (total > maxTiles) {
    const cols = ranges.reduce((sum, range) => sum + range.maxX - range.minX + 1, 0);
    const rows = ranges[0]!.maxY - ranges[0]!.minY + 1;
    throw new TooManyTilesError(
      `${where} at zoom ${zoom} needs ${fmt(total)} sub-tiles (${fmt(cols)} × ${fmt(rows)}), more than the cap of ` +
        `${fmt(maxTiles)}; choose a lower zoom (its native zoom is ${native}) in the .job.json sidecar`,
    );
  }
  return {
    crs: crs.label,
    warnings: crs.gridWarning ? [crs.gridWarning] : [],
    bbox3857,
    resolution,
    nativeZoom: native,
    zoom,
    ranges,
    total,
  };
}
