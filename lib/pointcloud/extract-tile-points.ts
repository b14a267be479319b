import { z } from 'zod';
import type { Bbox } from '../tiling/bbox.js';
import { chooseGroundSelection, GROUND_CLASS, type GroundSelection } from './choose-ground-selection.js';
import { openTileInputs } from './open-tile-inputs.js';
import { pointBatches } from './point-batches.js';
import { PointBins } from './point-bins.js';
import { type PointsVrt, writePointsVrt } from './write-points-vrt.js';

export const extractTileRequestSchema = z
  .object({
    /**
     * `points`: write the tile's DTM points for gdal_grid (the local engine). `probe`: only
     * decide the ground selection, stopping at the first ground point (the PDAL engine).
     */
    mode: z.enum(['points', 'probe']),
    /** The file, or a collection's members under the tile: read as one cloud. */
    sources: z.array(z.string().min(1)).min(1),
    tile: z.object({
      z: z.number().int().min(0).max(30),
      x: z.number().int().min(0),
      y: z.number().int().min(0),
    }),
    /** The interpolation's search radius, EPSG:3857 metres: how far around the tile points matter. */
    radius: z.number().positive().finite(),
    /** Where `points` mode writes points.csv and points.vrt. */
    outDir: z.string().min(1),
    /** The job's source CRS (EPSG:<code>, PROJ or WKT), replacing what the files say. */
    sourceCrs: z.string().min(1).optional(),
  })
  .strict();

export type ExtractTileRequest = z.infer<typeof extractTileRequestSchema>;

/** A file whose points can reach the tile, as PDAL's reader takes it. */
export interface ExtractInput {
  readonly source: string;
  readonly format: 'las' | 'laz' | 'copc';
  /** Its CRS as GDAL and PDAL take it: `EPSG:<code>` or the horizontal WKT. */
  readonly srs: string;
  /** The box (its CRS) points are taken from. */
  readonly sourceBox: Bbox;
}

export interface ExtractTileSummary {
  /** The sources' CRS (or CRSs, joined), for messages. */
  readonly crs: string;
  /** The files whose points can reach the tile, in the request's order; none when it misses them all. */
  readonly inputs: readonly ExtractInput[];
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

/**
 * Reads the points of one tile's neighbourhood from local LAS/LAZ/COPC files (one file, or the
 * members of a collection under the tile, read as one cloud) and decides which make its DTM (see
 * chooseGroundSelection). In `points` mode the selected points are averaged per output pixel
 * (PointBins, one grid per CRS) and written for gdal_grid. Runs in a child process (see
 * extract-tile-points-main.ts): decoding is CPU-bound and laz-perf is process-global.
 */
export async function extractTilePoints(request: ExtractTileRequest): Promise<ExtractTileSummary> {
  const { groups, close } = await openTileInputs(
    request.sources,
    request.tile,
    request.radius,
    request.sourceCrs,
  );
  try {
    const inputs = groups.flatMap((g) =>
      g.inputs.flatMap(({ cloud, sourceBox }) =>
        sourceBox ? [{ source: cloud.path, format: cloud.header.format, srs: g.srs, sourceBox }] : [],
      ),
    );
    const base = { crs: groups.map((g) => g.label).join(' + '), inputs };
    if (inputs.length === 0) {
      return { ...base, pointsRead: 0, pointsInBox: 0, classes: {}, selection: 'none', complete: true };
    }

    const probe = request.mode === 'probe';
    const classes = new Float64Array(256);
    // Unclassified points are kept apart from ground: they are used only when no class 2 exists.
    const bins = groups.map((g) =>
      probe || !g.box
        ? undefined
        : {
            ground: new PointBins(g.box, g.region.sourceCell),
            unclassified: new PointBins(g.box, g.region.sourceCell),
          },
    );
    let pointsRead = 0;
    let pointsInBox = 0;
    let complete = true;
    scan: for (const [g, group] of groups.entries()) {
      if (!group.box) continue;
      const [minX, minY, maxX, maxY] = group.box;
      for (const { cloud, sourceBox } of group.inputs) {
        if (!sourceBox) continue;
        for await (const batch of pointBatches(cloud, sourceBox)) {
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
            } else if (c === GROUND_CLASS) bins[g]!.ground.add(x, y, batch.z[i]!);
            else if (c <= 1) bins[g]!.unclassified.add(x, y, batch.z[i]!);
          }
        }
      }
    }

    const selection = chooseGroundSelection(classes);
    const histogram = Object.fromEntries(
      [...classes].flatMap((n, c) => (n > 0 ? [[String(c), n] as const] : [])),
    );
    const summary = { ...base, pointsRead, pointsInBox, classes: histogram, selection, complete };
    if (probe || selection === 'none') return summary;
    const layers = groups.flatMap((group, g) => {
      const binned = bins[g] && (selection === 'ground' ? bins[g].ground : bins[g].unclassified);
      return binned && binned.size > 0 ? [{ points: binned.points(), srs: group.srs }] : [];
    });
    // Every selected point can lack a finite Z: an empty layer still makes a valid (nodata) grid input.
    const written = layers.length > 0 ? layers : [{ points: [], srs: groups[0]!.srs }];
    return { ...summary, points: await writePointsVrt(request.outDir, written) };
  } finally {
    await close();
  }
}
