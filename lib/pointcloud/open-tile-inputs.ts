import type { Bbox } from '../tiling/bbox.js';
import { UnsupportedCrsError } from '../tiling/errors.js';
import { horizontalWkt } from '../tiling/horizontal-wkt.js';
import { resolveCrs } from '../tiling/resolve-crs.js';
import { overrideSrs, sourceCrsOverride } from '../tiling/source-crs-override.js';
import type { TileCoord } from '../tiling/tile-coord.js';
import { type OpenedPointCloud, openPointCloud } from './open-point-cloud.js';
import { type TileRegion, tileRegion } from './tile-region.js';

/** One file of a tile's neighbourhood, open, with the box its points can reach the tile from. */
export interface TileInput {
  readonly cloud: OpenedPointCloud;
  /** This file's part of the group's box; undefined when none of its points can reach the tile. */
  readonly sourceBox: Bbox | undefined;
}

/**
 * The files of one CRS: their points are binned together, as if they were one file. A collection's
 * members usually share a CRS; a survey across two UTM zones makes two groups.
 */
export interface CrsGroup {
  /** The CRS, for messages. */
  readonly label: string;
  /** The CRS as GDAL and PDAL take it: `EPSG:<code>` or the horizontal WKT. */
  readonly srs: string;
  readonly region: TileRegion;
  /**
   * The tile's neighbourhood in this CRS: the box points are kept from and binned on. It depends
   * on the tile alone, not on the files' bounds, so a file cut into members bins its points on
   * the same grid as the whole file; undefined when the tile misses every file of the group.
   */
  readonly box: Bbox | undefined;
  readonly inputs: readonly TileInput[];
}

export interface TileInputs {
  readonly groups: readonly CrsGroup[];
  close(): Promise<void>;
}

export const intersect = (a: Bbox, b: Bbox): Bbox | undefined => {
  const box: Bbox = [Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.min(a[2], b[2]), Math.min(a[3], b[3])];
  return box[0] <= box[2] && box[1] <= box[3] ? box : undefined;
};

/** The CRS of one file (the job's source CRS replaces the file's, as the split planned with it). */
function crsOf(cloud: OpenedPointCloud, sourceCrs: string | undefined) {
  const crs = sourceCrs === undefined ? cloud.header.crs : sourceCrsOverride(sourceCrs);
  if (!crs) {
    throw new UnsupportedCrsError(
      `${cloud.path} has no CRS (no GeoKeyDirectory or OGC WKT VLR): its points cannot be placed on a map`,
    );
  }
  const resolved = resolveCrs(crs);
  // GDAL reprojects the points: give it what the file (or the user) says (GDAL reads every WKT
  // dialect and axis order itself), not the proj4 rewrite (a south-orientated TM becomes TM for proj4).
  const srs =
    sourceCrs !== undefined
      ? overrideSrs(sourceCrs)
      : crs.kind === 'epsg'
        ? `EPSG:${crs.code}`
        : crs.kind === 'wkt'
          ? horizontalWkt(crs.wkt)
          : resolved.definition;
  return { resolved, srs };
}

/** Opens the files under a tile (one, or a collection's members) and groups them by CRS. */
export async function openTileInputs(
  sources: readonly string[],
  tile: TileCoord,
  radius: number,
  sourceCrs: string | undefined,
): Promise<TileInputs> {
  const opened: OpenedPointCloud[] = [];
  const close = async () => {
    await Promise.all(opened.map((c) => c.close().catch(() => {})));
  };
  try {
    const bySrs = new Map<string, { label: string; region: TileRegion; clouds: OpenedPointCloud[] }>();
    for (const source of sources) {
      const cloud = await openPointCloud(source);
      opened.push(cloud);
      const { resolved, srs } = crsOf(cloud, sourceCrs);
      const group = bySrs.get(srs) ?? {
        label: resolved.label,
        region: tileRegion(tile, radius, resolved),
        clouds: [],
      };
      group.clouds.push(cloud);
      bySrs.set(srs, group);
    }
    const groups = [...bySrs].map(([srs, { label, region, clouds }]): CrsGroup => {
      const inputs = clouds.map((cloud) => ({
        cloud,
        sourceBox: region.source && intersect(region.source, cloud.header.bbox),
      }));
      const box = inputs.some((i) => i.sourceBox) ? region.source : undefined;
      return { label, srs, region, box, inputs };
    });
    return { groups, close };
  } catch (error) {
    await close();
    throw error;
  }
}
