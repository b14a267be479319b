import type { Bounds } from '../tiling/tile-bounds.js';
import { NODATA, TILE_PIXELS } from './dtm-grid.js';
import type { ExtractInput } from './extract-tile-points.js';

export interface PdalDtmPipelineOptions {
  /**
   * The files to read, each with its CRS and the box (in that CRS) holding the buffered tile: one
   * file, or a collection's members under the tile, merged into one cloud before anything else.
   *
   * The CRS is the one the split and the extractor resolved (EPSG code, WKT or PROJ string), given
   * to PDAL's reader as `override_srs`: PDAL then places the points where the plan did. On its
   * own, PDAL 2.8.4 reads no CRS from a LAS 1.4 file of point format 6–10 that carries GeoKeys but
   * no WKT (the global-encoding WKT bit set, as the format requires) and fails the crop
   * ("Unable to transform crop geometry to point coordinate system"). The box lets readers.copc
   * skip the other octree nodes.
   */
  readonly inputs: readonly ExtractInput[];
  /** The tile (EPSG:3857): the raster covers exactly this, TILE_PIXELS across. */
  readonly bounds: Bounds;
  /** The tile grown by the search radius (EPSG:3857): points outside cannot reach a pixel. */
  readonly buffered: Bounds;
  readonly radius: number;
  readonly power: number;
  /** `ground`: keep class 2. `unclassified`: find ground with SMRF first, then keep class 2. */
  readonly selection: 'ground' | 'unclassified';
  /** The raster to write (a .part path: the driver is named, never guessed from the name). */
  readonly output: string;
  /** The job's source CRS, as PDAL's `override_srs` takes it: replaces what the file says. */
  readonly sourceSrs?: string;
}

export type PdalStage = Readonly<Record<string, string | number | boolean | readonly string[]>>;

const range = (min: number, max: number) => `[${min}, ${max}]`;
const pdalBounds = (minX: number, maxX: number, minY: number, maxY: number) =>
  `(${range(minX, maxX)}, ${range(minY, maxY)})`;

/** The crop to the buffered tile, given in EPSG:3857: PDAL reprojects the box into the points' CRS, so the cut is exact. */
export function cropToBuffered(buffered: Bounds): PdalStage {
  return {
    type: 'filters.crop',
    bounds: pdalBounds(buffered.minX, buffered.maxX, buffered.minY, buffered.maxY),
    a_srs: 'EPSG:3857',
  };
}

/** One file's reader (tagged when a merge names it). */
function readerOf(input: ExtractInput, srs: string, tag?: string): PdalStage {
  const { sourceBox } = input;
  const reader: Record<string, string> =
    input.format === 'copc'
      ? {
          type: 'readers.copc',
          filename: input.source,
          override_srs: srs,
          // In the file's own CRS: every PDAL version takes that; the exact cut is the crop below.
          bounds: pdalBounds(sourceBox[0], sourceBox[2], sourceBox[1], sourceBox[3]),
        }
      : { type: 'readers.las', filename: input.source, override_srs: srs };
  if (tag) reader.tag = tag;
  return reader;
}

/**
 * The readers of every input, merged into one cloud in the first input's CRS (members in another
 * CRS are reprojected into it first): SMRF and the crop then see one cloud, as if the members
 * were one file. One input is read alone.
 */
function readInputs(inputs: readonly ExtractInput[], sourceSrs: string | undefined): PdalStage[] {
  const srsOf = (input: ExtractInput) => sourceSrs ?? input.srs;
  if (inputs.length === 1) return [readerOf(inputs[0]!, srsOf(inputs[0]!))];
  const common = srsOf(inputs[0]!);
  const stages: PdalStage[] = [];
  const merged: string[] = [];
  inputs.forEach((input, i) => {
    stages.push(readerOf(input, srsOf(input), `r${i}`));
    if (srsOf(input) === common) merged.push(`r${i}`);
    else {
      stages.push({ type: 'filters.reprojection', inputs: [`r${i}`], out_srs: common, tag: `p${i}` });
      merged.push(`p${i}`);
    }
  });
  stages.push({ type: 'filters.merge', inputs: merged });
  return stages;
}

/**
 * The PDAL pipeline of one DTM tile (the production engine, where `pdal` is installed):
 * read (COPC: only the nodes near the tile; several files merged) → crop to the buffered tile → [SMRF] → ground only
 * → reproject to EPSG:3857 → writers.gdal, IDW, Float32, nodata -9999, DEFLATE.
 *
 * The grid is given as origin + width/height, not `bounds`: writers.gdal sizes a `bounds` grid as
 * floor(extent / resolution) + 1 cells, i.e. 257×257 for a tile (and `bounds` is deprecated).
 * With origin_x/origin_y (the lower-left corner) and 256×256 cells of tile-width/256, the raster's
 * geotransform is exactly the tile's bounds, north-up. A fixed grid is written even when no point
 * survives the filters: an all-nodata tile, not an error.
 */
export function pdalDtmPipeline(options: PdalDtmPipelineOptions): { pipeline: PdalStage[] } {
  const { bounds, buffered } = options;
  const cell = (bounds.maxX - bounds.minX) / TILE_PIXELS;
  // The user's source CRS wins over what the extractor read from the files.
  const pipeline: PdalStage[] = [...readInputs(options.inputs, options.sourceSrs), cropToBuffered(buffered)];
  // SMRF's defaults (cell 1, window 18, threshold 0.5) are in the data's units: it runs before
  // reprojection, on the source's own metres or feet, as it is usually tuned.
  if (options.selection === 'unclassified') pipeline.push({ type: 'filters.smrf' });
  pipeline.push(
    { type: 'filters.range', limits: 'Classification[2:2]' },
    { type: 'filters.reprojection', out_srs: 'EPSG:3857' },
    {
      type: 'writers.gdal',
      filename: options.output,
      gdaldriver: 'GTiff',
      gdalopts: 'COMPRESS=DEFLATE',
      data_type: 'float32',
      nodata: NODATA,
      output_type: 'idw',
      resolution: cell,
      radius: options.radius,
      power: options.power,
      origin_x: bounds.minX,
      origin_y: bounds.minY,
      width: TILE_PIXELS,
      height: TILE_PIXELS,
      // An empty grid has no points to take the CRS from.
      override_srs: 'EPSG:3857',
    },
  );
  return { pipeline };
}
