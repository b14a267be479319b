import type { ObjectStore } from '../store/object-store.js';
import { levelItemsFolder, RUN_OUTPUTS, tileHref } from './run-outputs.js';
import {
  itemGroup,
  type StacDates,
  type StacTile,
  stacBlockCatalog,
  stacItem,
  wgs84Bbox,
} from './stac-catalog.js';
import { stacCollection } from './stac-collection.js';
import type { TileSet } from './tile-set.js';
import { eachLimited, type TileBlock } from './write-mosaic.js';

/** Display tiles' extension and media type, and their role (a picture, not the data). */
export interface TileMedia {
  readonly ext: string;
  readonly type: string;
  readonly role: string;
}

/** Blocks written at once, and items at once within each: 4 × 8 small PUTs in flight. */
const PARALLEL_BLOCKS = 4;
const PARALLEL_ITEMS = 8;

/**
 * The run's STAC catalogue as a static catalog (docs/architecture.md, "Finalize and outputs"):
 * `items/<bx>-<by>/catalog.json` per mosaic block, linking one item file per 4×4 group of its
 * tiles, and the collection linking the block catalogs. Returns the collection's key.
 */
export async function writeStac(
  store: ObjectStore,
  prefix: string,
  options: {
    runId: string;
    sourceName: string;
    description: string;
    dates: StacDates;
    interval: readonly [string, string];
    tiles: TileSet;
    blocks: readonly TileBlock[];
    /** A pyramid's lower levels: their items in their own block catalogs, in the same collection. */
    lower?: readonly { readonly tiles: TileSet; readonly blocks: readonly TileBlock[] }[];
    mosaic: boolean;
    members?: readonly string[];
    /** The tiles' extension and media type, when not GeoTIFF (display tiles). */
    media?: TileMedia;
  },
): Promise<string> {
  const { runId, tiles } = options;
  const levels = [
    { tiles, blocks: options.blocks, base: true },
    ...(options.lower ?? []).map((l) => ({ ...l, base: false })),
  ];
  const children: string[] = [];
  for (const level of levels) {
    const z = level.base ? undefined : level.tiles.z;
    const folderOf = (b: TileBlock) => levelItemsFolder(z, b);
    await writeLevelItems(store, prefix, runId, { ...level, z }, folderOf, options.dates, options.media);
    children.push(...level.blocks.map((b) => `${folderOf(b)}catalog.json`));
  }
  const key = `${prefix}${RUN_OUTPUTS.collection}`;
  const collection = stacCollection({
    runId,
    sourceName: options.sourceName,
    description: options.description,
    bbox: wgs84Bbox(tiles.z, tiles.minX, tiles.minY, tiles.maxX, tiles.maxY),
    interval: options.interval,
    children,
    mosaic: options.mosaic,
    ...(options.members ? { members: options.members } : {}),
  });
  await store.putText(key, JSON.stringify(collection, null, 2), { contentType: 'application/json' });
  return key;
}

/** One level's items, a catalog per block of them. */
async function writeLevelItems(
  store: ObjectStore,
  prefix: string,
  runId: string,
  level: { readonly tiles: TileSet; readonly blocks: readonly TileBlock[]; readonly z: number | undefined },
  folderOf: (b: TileBlock) => string,
  dates: StacDates,
  media?: TileMedia,
): Promise<void> {
  const { tiles, blocks } = level;
  await eachLimited(blocks, PARALLEL_BLOCKS, async (block) => {
    const groups = new Map<string, { gx: number; gy: number; tiles: StacTile[] }>();
    for (const i of block.indices) {
      const tile = { z: tiles.z, x: tiles.x(i), y: tiles.y(i) };
      const { gx, gy } = itemGroup(tile.x, tile.y);
      const key = `${gx}-${gy}`;
      const group = groups.get(key) ?? { gx, gy, tiles: [] };
      groups.set(key, group);
      group.tiles.push({
        x: tile.x,
        y: tile.y,
        bytes: tiles.bytes(i),
        href: tileHref(runId, 2, tile, media?.ext),
      });
    }
    const files = [...groups.values()].map((g) => ({ group: g, file: `${tiles.z}-${g.gx}-${g.gy}.json` }));
    await eachLimited(files, PARALLEL_ITEMS, async ({ group, file }) => {
      const item = stacItem(runId, tiles.z, group, group.tiles, dates, media);
      await store.putText(`${prefix}${folderOf(block)}${file}`, JSON.stringify(item), {
        contentType: 'application/geo+json',
      });
    });
    const catalog = stacBlockCatalog(
      runId,
      block,
      files.map((f) => f.file),
      level.z,
    );
    await store.putText(`${prefix}${folderOf(block)}catalog.json`, JSON.stringify(catalog, null, 1), {
      contentType: 'application/json',
    });
  });
}
