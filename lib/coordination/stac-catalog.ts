import { bboxPolygon } from '../tiling/bbox.js';
import { tileBounds } from '../tiling/tile-bounds.js';
import { EARTH_RADIUS } from '../tiling/web-mercator.js';

export const STAC_VERSION = '1.0.0';

/** The published STAC extensions whose fields the catalogue uses, by field prefix. */
export const STAC_EXTENSIONS = {
  proj: 'https://stac-extensions.github.io/projection/v2.0.0/schema.json',
  file: 'https://stac-extensions.github.io/file/v2.1.0/schema.json',
} as const;

export const JSON_TYPE = 'application/json';
/**
 * Every tile is a cloud-optimized GeoTIFF (one 256×256 block, so GDAL's validator finds nothing
 * to object to): the profile tells a client it may read it by range.
 */
export const COG_TYPE = 'image/tiff; application=geotiff; profile=cloud-optimized';

const DEGREES = 180 / Math.PI;
/** EPSG:3857's inverse in closed form (a sphere): a million items cost milliseconds, not a minute of proj4. */
const longitude = (x: number) => (x / EARTH_RADIUS) * DEGREES;
const latitude = (y: number) => (2 * Math.atan(Math.exp(y / EARTH_RADIUS)) - Math.PI / 2) * DEGREES;

/** WGS 84 bounds of a range of XYZ tiles: west, south, east, north. */
export function wgs84Bbox(z: number, x0: number, y0: number, x1: number, y1: number) {
  const nw = tileBounds(z, x0, y0);
  const se = tileBounds(z, x1, y1);
  return [longitude(nw.minX), latitude(se.minY), longitude(se.maxX), latitude(nw.maxY)] as [
    number,
    number,
    number,
    number,
  ];
}

/**
 * When a tile's data is from and when it was made: `datetime` is the source's own date where
 * its header records one, else the run's; `created` is always the run's (STAC common metadata).
 */
export interface StacDates {
  readonly datetime: string;
  readonly created: string;
}

export interface StacTile {
  readonly x: number;
  readonly y: number;
  readonly bytes: number;
  /** Where the tile is, relative to the item's own file. */
  readonly href: string;
}

/** Tiles per side of one item: a 4×4 group, aligned on the grid as metatiles are. */
export const ITEM_TILES = 4;
/** The item that holds tile x/y: its group's column and row. */
export const itemGroup = (x: number, y: number) => ({
  gx: Math.floor(x / ITEM_TILES),
  gy: Math.floor(y / ITEM_TILES),
});
export const itemId = (runId: string, z: number, gx: number, gy: number) => `${runId}-${z}-${gx}-${gy}`;

/**
 * One STAC item per aligned 4×4 group of tiles, each tile an asset named `z/x/y` (a million
 * tiles make 62,500 item files, not a million; docs/architecture.md, "Finalize and outputs").
 * Every prefixed field belongs to a declared extension: the Projection fields say each tile's
 * grid (EPSG:3857, 256 × 256, its transform), `file:size` its bytes. Links are relative: the
 * item sits two folders below the collection.
 */
export function stacItem(
  runId: string,
  z: number,
  group: { gx: number; gy: number },
  tiles: readonly StacTile[],
  dates: StacDates,
  media: { readonly type: string; readonly role: string } = { type: COG_TYPE, role: 'data' },
) {
  const xs = tiles.map((t) => t.x);
  const ys = tiles.map((t) => t.y);
  const [w, s, e, n] = wgs84Bbox(z, Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys));
  const assets: Record<string, object> = {};
  for (const t of tiles) {
    const b = tileBounds(z, t.x, t.y);
    const res = (b.maxX - b.minX) / 256;
    assets[`${z}/${t.x}/${t.y}`] = {
      href: t.href,
      type: media.type,
      roles: [media.role],
      'file:size': t.bytes,
      'proj:bbox': [b.minX, b.minY, b.maxX, b.maxY],
      'proj:shape': [256, 256],
      'proj:transform': [res, 0, b.minX, 0, -res, b.maxY],
    };
  }
  return {
    type: 'Feature',
    stac_version: STAC_VERSION,
    stac_extensions: [STAC_EXTENSIONS.proj, STAC_EXTENSIONS.file],
    id: itemId(runId, z, group.gx, group.gy),
    collection: runId,
    bbox: [w, s, e, n],
    geometry: bboxPolygon([w, s, e, n]),
    properties: { datetime: dates.datetime, created: dates.created, 'proj:code': 'EPSG:3857' },
    links: [
      { rel: 'root', href: '../../collection.json', type: JSON_TYPE },
      { rel: 'parent', href: './catalog.json', type: JSON_TYPE },
      { rel: 'collection', href: '../../collection.json', type: JSON_TYPE },
    ],
    assets,
  };
}

/** A child catalog: the items of one mosaic block (64×64 tiles, so at most 256 item links). */
export function stacBlockCatalog(
  runId: string,
  block: { bx: number; by: number },
  itemFiles: readonly string[],
  /** A pyramid's lower level (absent: the base level, whose blocks keep their plain names). */
  level?: number,
) {
  const name = `${level === undefined ? '' : `z${level}-`}${block.bx}-${block.by}`;
  const of = level === undefined ? '' : ` at zoom ${level}`;
  return {
    type: 'Catalog',
    stac_version: STAC_VERSION,
    id: `${runId}-block-${name}`,
    description: `The tiles of block ${name} (64 × 64 tiles${of}) of geohub run ${runId}`,
    links: [
      { rel: 'root', href: '../../collection.json', type: JSON_TYPE },
      { rel: 'parent', href: '../../collection.json', type: JSON_TYPE },
      { rel: 'self', href: './catalog.json', type: JSON_TYPE },
      ...itemFiles.map((href) => ({ rel: 'item', href: `./${href}`, type: 'application/geo+json' })),
    ],
  };
}
