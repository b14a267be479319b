import { bboxPolygon } from '../tiling/bbox.js';
import { tileBounds } from '../tiling/tile-bounds.js';
import type { TileCoord } from '../tiling/tile-coord.js';
import { EARTH_RADIUS } from '../tiling/web-mercator.js';

const STAC_VERSION = '1.0.0';

/** The published STAC extensions whose fields the catalogue uses, by field prefix. */
export const STAC_EXTENSIONS = {
  proj: 'https://stac-extensions.github.io/projection/v2.0.0/schema.json',
  file: 'https://stac-extensions.github.io/file/v2.1.0/schema.json',
  grid: 'https://stac-extensions.github.io/grid/v1.1.0/schema.json',
} as const;

const JSON_TYPE = 'application/json';

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

/**
 * One STAC item per tile, as it sits in an item part one folder below the collection. Every
 * prefixed field belongs to a declared extension: `proj:code` (projection), `file:size`
 * (file) and `grid:code` (grid: the tile's XYZ address). Hrefs are relative.
 */
export function stacItem(runId: string, tile: TileCoord & { bytes: number }, dates: StacDates, href: string) {
  const [w, s, e, n] = wgs84Bbox(tile.z, tile.x, tile.y, tile.x, tile.y);
  return {
    type: 'Feature',
    stac_version: STAC_VERSION,
    stac_extensions: [STAC_EXTENSIONS.proj, STAC_EXTENSIONS.file, STAC_EXTENSIONS.grid],
    id: `${runId}-${tile.z}-${tile.x}-${tile.y}`,
    collection: runId,
    bbox: [w, s, e, n],
    geometry: bboxPolygon([w, s, e, n]),
    properties: {
      datetime: dates.datetime,
      created: dates.created,
      'proj:code': 'EPSG:3857',
      'grid:code': `XYZ-${tile.z}-${tile.x}-${tile.y}`,
    },
    links: [
      { rel: 'root', href: '../collection.json', type: JSON_TYPE },
      { rel: 'parent', href: '../collection.json', type: JSON_TYPE },
      { rel: 'collection', href: '../collection.json', type: JSON_TYPE },
    ],
    assets: {
      data: {
        href,
        type: 'image/tiff; application=geotiff',
        roles: ['data'],
        'file:size': tile.bytes,
      },
    },
  };
}

/** The run's STAC collection: its extent, root/self links, and a link to each item part. */
export function stacCollection(options: {
  runId: string;
  description: string;
  bbox: readonly [number, number, number, number];
  interval: readonly [string, string];
  itemParts: readonly string[];
}) {
  return {
    type: 'Collection',
    stac_version: STAC_VERSION,
    stac_extensions: [],
    id: options.runId,
    description: options.description,
    license: 'other',
    extent: { spatial: { bbox: [options.bbox] }, temporal: { interval: [options.interval] } },
    links: [
      { rel: 'root', href: './collection.json', type: JSON_TYPE },
      { rel: 'self', href: './collection.json', type: JSON_TYPE },
      ...options.itemParts.map((href) => ({ rel: 'items', href: `./${href}`, type: 'application/geo+json' })),
    ],
  };
}
