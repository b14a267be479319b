import { z } from 'zod';
import type { Bbox } from '../tiling/bbox.js';
import { UnsupportedCrsError } from '../tiling/errors.js';
import { horizontalWkt } from '../tiling/horizontal-wkt.js';
import { resolveCrs } from '../tiling/resolve-crs.js';
import { overrideSrs, sourceCrsOverride } from '../tiling/source-crs-override.js';
import { chooseGroundSelection, GROUND_CLASS, type GroundSelection } from './choose-ground-selection.js';
import { openPointCloud } from './open-point-cloud.js';
import { pointBatches } from './point-batches.js';
import { PointBins } from './point-bins.js';
import { tileRegion } from './tile-region.js';
import { type PointsVrt, writePointsVrt } from './write-points-vrt.js';

export const extractTileRequestSchema = z
  .object({
    /**
     * `points`: write the tile's DTM points for gdal_grid (the local engine). `probe`: only
     * decide the ground selection, stopping at the first ground point (the PDAL engine).
     */
    mode: z.enum(['points', 'probe']),
    source: z.string().min(1),
    tile: z.object({
      z: z.number().int().min(0).max(30),
      x: z.number().int().min(0),
      y: z.number().int().min(0),
    }),
    /** The interpolation's search radius, EPSG:3857 metres: how far around the tile points matter. */
    radius: z.number().positive().finite(),
    /** Where `points` mode writes points.csv and points.vrt. */
    outDir: z.string().min(1),
    /** The job's source CRS (EPSG:<code>, PROJ or WKT), replacing what the file says. */
    sourceCrs: z.string().min(1).optional(),
  })
  .strict();

export type ExtractTileRequest = z.infer<typeof extractTileRequestSchema>;

export interface ExtractTileSummary {
  readonly format: 'las' | 'laz' | 'copc';
  /** The source CRS, for messages. */
  readonly crs: string;
  /** The source CRS as GDAL and PDAL take it: `EPSG:<code>` or the horizontal WKT. */
  readonly srs: string;
  /** The box (source CRS) points were taken from; undefined when the tile misses the cloud. */
  readonly sourceBox: Bbox | undefined;
  readonly pointsRead: number;
  readonly pointsInBox: number;
  /** Points per class inside the box (complete unless the probe stopped early). */
  readonly classes: Readonly<Record<string, number>>;
  readonly selection: GroundSelection;
  /** False when the probe stopped at the first ground point. */
  readonly complete: boolean;
  /** `points` mode with something to interpolate: the file gdal_grid reads. */
  readonly points?: PointsVrt;
}

const intersect = (a: Bbox, b: Bbox): Bbox | undefined => {
  const box: Bbox = [Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.min(a[2], b[2]), Math.min(a[3], b[3])];
  return box[0] <= box[2] && box[1] <= box[3] ? box : undefined;
};

/**
 * Reads the points of one tile's neighbourhood from a local LAS/LAZ/COPC file and decides which
 * make its DTM (see chooseGroundSelection). In `points` mode the selected points are averaged
 * per output pixel (PointBins) and written for gdal_grid. Runs in a child process (see
 * extract-tile-points-main.ts): decoding is CPU-bound and laz-perf is process-global.
 */
export async function extractTilePoints(request: ExtractTileRequest): Promise<ExtractTileSummary> {
  const cloud = await openPointCloud(request.source);
  try {
    const { header } = cloud;
    // The job's source CRS replaces the file's, as the split planned with it.
    const crs = request.sourceCrs === undefined ? header.crs : sourceCrsOverride(request.sourceCrs);
    if (!crs) {
      throw new UnsupportedCrsError(
        `${request.source} has no CRS (no GeoKeyDirectory or OGC WKT VLR): its points cannot be placed on a map`,
      );
    }
    const resolved = resolveCrs(crs);
    // GDAL reprojects the points: give it what the file (or the user) says (GDAL reads every WKT
    // dialect and axis order itself), not the proj4 rewrite (a south-orientated TM becomes TM for proj4).
    const srs =
      request.sourceCrs !== undefined
        ? overrideSrs(request.sourceCrs)
        : crs.kind === 'epsg'
          ? `EPSG:${crs.code}`
          : crs.kind === 'wkt'
            ? horizontalWkt(crs.wkt)
            : resolved.definition;
    const region = tileRegion(request.tile, request.radius, resolved);
    const sourceBox = region.source && intersect(region.source, header.bbox);
    const classes = new Float64Array(256);
    const base = { format: header.format, crs: resolved.label, srs, sourceBox };
    if (!sourceBox) {
      return { ...base, pointsRead: 0, pointsInBox: 0, classes: {}, selection: 'none', complete: true };
    }

    const probe = request.mode === 'probe';
    // Unclassified points are kept apart from ground: they are used only when no class 2 exists.
    const ground = probe ? undefined : new PointBins(sourceBox, region.sourceCell);
    const unclassified = probe ? undefined : new PointBins(sourceBox, region.sourceCell);
    const [minX, minY, maxX, maxY] = sourceBox;
    let pointsRead = 0;
    let pointsInBox = 0;
    let complete = true;
    scan: for await (const batch of pointBatches(cloud, sourceBox)) {
      pointsRead += batch.count;
      for (let i = 0; i < batch.count; i += 1) {
        const x = batch.x[i]!;
        const y = batch.y[i]!;
        if (!(x >= minX && x <= maxX && y >= minY && y <= maxY)) continue;
        const c = batch.classification[i]!;
        pointsInBox += 1;
        classes[c] += 1;
        if (probe) {
          if (c === GROUND_CLASS) {
            complete = false;
            break scan; // the decision is made: ground exists here
          }
        } else if (c === GROUND_CLASS) ground!.add(x, y, batch.z[i]!);
        else if (c <= 1) unclassified!.add(x, y, batch.z[i]!);
      }
    }

    const selection = chooseGroundSelection(classes);
    const histogram = Object.fromEntries(
      [...classes].flatMap((n, c) => (n > 0 ? [[String(c), n] as const] : [])),
    );
    const summary = { ...base, pointsRead, pointsInBox, classes: histogram, selection, complete };
    if (probe || selection === 'none') return summary;
    const bins = selection === 'ground' ? ground! : unclassified!;
    return { ...summary, points: await writePointsVrt(request.outDir, bins.points(), srs) };
  } finally {
    await cloud.close();
  }
}
