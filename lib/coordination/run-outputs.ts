import { tileOutputKey } from '../model/ids.js';
import type { TileCoord } from '../tiling/tile-coord.js';

export const RUN_OUTPUTS = {
  mosaic: 'mosaic.vrt',
  /** One VRT per block of tiles, under the top-level mosaic. */
  mosaicBlocks: 'mosaic/',
  collection: 'collection.json',
  /** The STAC items: a catalog per mosaic block, one item file per 4×4 tiles. */
  items: 'items/',
  summary: 'summary.json',
  /** Display tiles only: every level in one PMTiles v3 archive. */
  pmtiles: 'tiles.pmtiles',
} as const;

/** A pyramid's lower level's mosaic: its own top-level VRT over its own block VRTs (same depths as the base's). */
export function levelMosaicNames(z: number): { mosaic: string; mosaicBlocks: string } {
  return { mosaic: `mosaic-${z}.vrt`, mosaicBlocks: `mosaic-${z}/` };
}

/** A pyramid's lower level's STAC block folder prefix: beside the base's, at the same depth. */
export function levelItemsFolder(z: number | undefined, block: { bx: number; by: number }): string {
  return `${RUN_OUTPUTS.items}${z === undefined ? '' : `z${z}-`}${block.bx}-${block.by}/`;
}

/**
 * The outputs that are one file each, in the order they are offered: the content type they are
 * written and served as, and their name for a user (the page's download links).
 */
export const OUTPUT_FILES: Readonly<Record<string, { readonly type: string; readonly label: string }>> = {
  [RUN_OUTPUTS.mosaic]: { type: 'application/xml', label: 'Mosaic (VRT)' },
  [RUN_OUTPUTS.collection]: { type: 'application/json', label: 'STAC collection' },
  [RUN_OUTPUTS.summary]: { type: 'application/json', label: 'Summary' },
  [RUN_OUTPUTS.pmtiles]: { type: 'application/vnd.pmtiles', label: 'PMTiles archive' },
};

/**
 * A tile's href from a run output `depth` folders below the run's prefix: relative, so the
 * outputs work in the bucket and in a copy that keeps its layout. A copy that puts the tiles
 * beside the outputs (geohub run --out) rewrites the prefix with `localTileHrefs`.
 */
export function tileHref(runId: string, depth: number, tile: TileCoord, ext = 'tif'): string {
  return `${'../'.repeat(depth + 2)}${tileOutputKey(runId, tile, ext)}`;
}

/** The href prefix of tiles as written in an output at `depth`, and what it becomes beside the tiles. */
export function localTileHrefs(runId: string, depth: number): { from: string; to: string } {
  return {
    from: `${'../'.repeat(depth + 2)}${tileOutputKey(runId, { z: 0, x: 0, y: 0 }).replace(/0\/0\/0\.tif$/, '')}`,
    to: '../'.repeat(depth),
  };
}
