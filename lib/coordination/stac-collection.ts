import { RUN_OUTPUTS } from './run-outputs.js';
import { JSON_TYPE, STAC_VERSION } from './stac-catalog.js';

export interface CollectionOptions {
  readonly runId: string;
  /** The user's file, by name: never an object key. */
  readonly sourceName: string;
  readonly description: string;
  readonly bbox: readonly [number, number, number, number];
  readonly interval: readonly [string, string];
  /** Child catalogs, one per mosaic block, relative to the collection. */
  readonly children: readonly string[];
  readonly mosaic: boolean;
  /** A collection run's members, by file name, in the collection's order: the tiles' sources. */
  readonly members?: readonly string[];
}

/**
 * The run's STAC collection (one for a collection run too: its members, by file name, are listed
 * as `geohub:members`, the sources of every tile), the root of a static catalog: a link walker (PySTAC, STAC
 * Browser) reaches every item through `child` links to one catalog per mosaic block, each with
 * `item` links, so the collection holds at most one link per 64×64 tiles (256 at a million
 * tiles). The mosaic VRT and the summary are collection-level assets.
 */
export function stacCollection(options: CollectionOptions) {
  const assets: Record<string, object> = {
    summary: {
      href: `./${RUN_OUTPUTS.summary}`,
      type: JSON_TYPE,
      roles: ['metadata'],
      title: 'What the run did: its counters and every sub-tile that was not done',
    },
  };
  if (options.mosaic)
    assets.mosaic = {
      href: `./${RUN_OUTPUTS.mosaic}`,
      type: 'application/xml',
      roles: ['data', 'mosaic'],
      title: `GDAL VRT mosaic of every tile of ${options.sourceName}`,
    };
  return {
    type: 'Collection',
    stac_version: STAC_VERSION,
    stac_extensions: [],
    id: options.runId,
    title: `${options.sourceName}, tiled by geohub`,
    description: options.description,
    license: 'other',
    extent: { spatial: { bbox: [options.bbox] }, temporal: { interval: [options.interval] } },
    links: [
      { rel: 'root', href: './collection.json', type: JSON_TYPE },
      { rel: 'self', href: './collection.json', type: JSON_TYPE },
      ...options.children.map((href) => ({ rel: 'child', href: `./${href}`, type: JSON_TYPE })),
    ],
    assets,
    ...(options.members ? { 'geohub:members': options.members } : {}),
  };
}
