import proj4 from 'proj4';
import { tileBounds } from '../tiling/tile-bounds.js';

export interface StacTile {
  readonly z: number;
  readonly x: number;
  readonly y: number;
  readonly bytes: number;
}

const STAC_VERSION = '1.0.0';

function wgs84Bbox(z: number, x: number, y: number): [number, number, number, number] {
  const b = tileBounds(z, x, y);
  const [west, south] = proj4('EPSG:3857', 'EPSG:4326', [b.minX, b.minY]) as [number, number];
  const [east, north] = proj4('EPSG:3857', 'EPSG:4326', [b.maxX, b.maxY]) as [number, number];
  return [west, south, east, north];
}

/** One STAC item per tile; hrefs are relative so the catalogue works in S3 and in a local copy. */
export function stacItem(runId: string, tile: StacTile, datetime: string) {
  const [w, s, e, n] = wgs84Bbox(tile.z, tile.x, tile.y);
  return {
    type: 'Feature',
    stac_version: STAC_VERSION,
    id: `${runId}-${tile.z}-${tile.x}-${tile.y}`,
    collection: runId,
    bbox: [w, s, e, n],
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [w, s],
          [e, s],
          [e, n],
          [w, n],
          [w, s],
        ],
      ],
    },
    properties: { datetime, 'proj:epsg': 3857, 'tile:z': tile.z, 'tile:x': tile.x, 'tile:y': tile.y },
    links: [{ rel: 'collection', href: './collection.json', type: 'application/json' }],
    assets: {
      data: {
        href: `./${tile.z}/${tile.x}/${tile.y}.tif`,
        type: 'image/tiff; application=geotiff',
        roles: ['data'],
        'file:size': tile.bytes,
      },
    },
  };
}

/** The run's STAC collection, with its extent and a link to the item collection. */
export function stacCollection(
  runId: string,
  description: string,
  tiles: readonly StacTile[],
  datetime: string,
) {
  const boxes = tiles.map((t) => wgs84Bbox(t.z, t.x, t.y));
  const extent = [
    Math.min(...boxes.map((b) => b[0])),
    Math.min(...boxes.map((b) => b[1])),
    Math.max(...boxes.map((b) => b[2])),
    Math.max(...boxes.map((b) => b[3])),
  ];
  return {
    type: 'Collection',
    stac_version: STAC_VERSION,
    id: runId,
    description,
    license: 'other',
    extent: { spatial: { bbox: [extent] }, temporal: { interval: [[datetime, datetime]] } },
    links: [
      { rel: 'items', href: './items.json', type: 'application/geo+json' },
      { rel: 'self', href: './collection.json', type: 'application/json' },
    ],
  };
}
