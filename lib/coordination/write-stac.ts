import type { ObjectStore } from '../store/object-store.js';
import { RUN_OUTPUTS, tileHref } from './run-outputs.js';
import { type StacDates, stacCollection, stacItem, wgs84Bbox } from './stac-catalog.js';
import type { TileSet } from './tile-set.js';
import { eachLimited, type TileBlock } from './write-mosaic.js';

/**
 * The run's STAC catalogue: the items in parts (one FeatureCollection per block of tiles,
 * streamed, one item a line) and the collection that links every part (docs/architecture.md,
 * "Finalize and outputs"). Returns the collection's key.
 */
export async function writeStac(
  store: ObjectStore,
  prefix: string,
  options: {
    runId: string;
    description: string;
    dates: StacDates;
    interval: readonly [string, string];
    tiles: TileSet;
    blocks: readonly TileBlock[];
  },
): Promise<string> {
  const { runId, tiles } = options;
  const partOf = (b: TileBlock) => `${RUN_OUTPUTS.itemParts}${b.bx}-${b.by}.json`;
  await eachLimited(options.blocks, 4, async (block) => {
    function* chunks(): Generator<string> {
      let chunk = '{"type":"FeatureCollection","features":[\n';
      let first = true;
      for (const i of block.indices) {
        const tile = { z: tiles.z, x: tiles.x(i), y: tiles.y(i), bytes: tiles.bytes(i) };
        const item = stacItem(runId, tile, options.dates, tileHref(runId, 1, tile));
        chunk += `${first ? '' : ',\n'}${JSON.stringify(item)}`;
        first = false;
        if (chunk.length > 1 << 16) {
          yield chunk;
          chunk = '';
        }
      }
      yield `${chunk}\n],"links":[{"rel":"root","href":"../collection.json","type":"application/json"}]}\n`;
    }
    await store.putStream(`${prefix}${partOf(block)}`, chunks(), { contentType: 'application/geo+json' });
  });
  const key = `${prefix}${RUN_OUTPUTS.collection}`;
  const collection = stacCollection({
    runId,
    description: options.description,
    bbox: wgs84Bbox(tiles.z, tiles.minX, tiles.minY, tiles.maxX, tiles.maxY),
    interval: options.interval,
    itemParts: options.blocks.map(partOf),
  });
  await store.putText(key, JSON.stringify(collection, null, 2), { contentType: 'application/json' });
  return key;
}
