import { type Bbox, bboxCorners, bboxOfPoints, type Point } from '../tiling/bbox.js';
import { crsConverter } from '../tiling/crs-converter.js';
import { densifyRing } from '../tiling/reproject-footprint.js';
import type { ResolvedCrs } from '../tiling/resolve-crs.js';
import { type Bounds, tileBounds } from '../tiling/tile-bounds.js';
import type { TileCoord } from '../tiling/tile-coord.js';
import { TILE_PIXELS } from './dtm-grid.js';

/**
 * Extra room (EPSG:3857 metres, at least two pixels) around the selection in the source CRS.
 * proj4 (used here) and PROJ (used by GDAL/PDAL for the points themselves) may disagree by a
 * metre or so when a datum shift is involved (NAD83(HARN) → WGS 84: ≈1.6 m at Autzen); the
 * selection must hold every point PROJ places inside the buffered tile.
 */
export const SOURCE_MARGIN_M = 10;

/** What one tile needs from the point cloud, in both CRSs. */
export interface TileRegion {
  /** The tile's bounds in EPSG:3857: the output grid covers exactly these. */
  readonly bounds: Bounds;
  /** One output pixel, in EPSG:3857 metres. */
  readonly cell: number;
  /** The bounds grown by the search radius and a pixel: every point that can reach an edge pixel. */
  readonly buffered: Bounds;
  /**
   * The buffered bounds plus a margin, as a box in the source CRS (densified edges, so the box
   * holds the curved outline); undefined when the tile lies outside the source CRS's domain.
   */
  readonly source: Bbox | undefined;
  /** The size of one output pixel near the tile, in source CRS units. */
  readonly sourceCell: number;
}

const grow = (b: Bounds, by: number): Bounds => ({
  minX: b.minX - by,
  minY: b.minY - by,
  maxX: b.maxX + by,
  maxY: b.maxY + by,
});

const asBbox = (b: Bounds): Bbox => [b.minX, b.minY, b.maxX, b.maxY];

/** The tile's bounds and pixel size in EPSG:3857, and the bounds grown by the radius and a pixel. */
export function bufferedTile(
  tile: TileCoord,
  radius: number,
): Pick<TileRegion, 'bounds' | 'cell' | 'buffered'> {
  const bounds = tileBounds(tile.z, tile.x, tile.y);
  const cell = (bounds.maxX - bounds.minX) / TILE_PIXELS;
  return { bounds, cell, buffered: grow(bounds, radius + cell) };
}

/** The tile's footprint in EPSG:3857 and in the source CRS, grown so interpolation has neighbours at the edges. */
export function tileRegion(tile: TileCoord, radius: number, crs: ResolvedCrs): TileRegion {
  const { bounds, cell, buffered } = bufferedTile(tile, radius);
  const selection = grow(buffered, Math.max(2 * cell, SOURCE_MARGIN_M));
  if (crs.webMercator) {
    return { bounds, cell, buffered, source: asBbox(selection), sourceCell: cell };
  }

  const fromSource = crsConverter(crs, 'EPSG:3857');
  const project = ([x, y]: Point): Point | undefined => {
    try {
      const [sx, sy] = fromSource.inverse([x, y]);
      return Number.isFinite(sx) && Number.isFinite(sy) ? [sx!, sy!] : undefined;
    } catch {
      return undefined; // outside the source projection's domain
    }
  };
  const ring = densifyRing(bboxCorners(asBbox(selection)));
  const source = bboxOfPoints(ring.map(project).filter((p): p is Point => p !== undefined));

  const cx = (bounds.minX + bounds.maxX) / 2;
  const cy = (bounds.minY + bounds.maxY) / 2;
  const centre = project([cx, cy]);
  const east = project([cx + cell, cy]);
  const north = project([cx, cy + cell]);
  let sourceCell = Number.NaN;
  if (centre && east && north) {
    sourceCell =
      (Math.hypot(east[0] - centre[0], east[1] - centre[1]) +
        Math.hypot(north[0] - centre[0], north[1] - centre[1])) /
      2;
  }
  if (!(sourceCell > 0) && source) {
    sourceCell = ((source[2] - source[0]) / (selection.maxX - selection.minX)) * cell;
  }
  return { bounds, cell, buffered, source, sourceCell };
}
