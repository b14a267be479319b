import { gzipSync } from 'node:zlib';
import { Compression, TileType, zxyToTileId } from 'pmtiles';
import { wgs84Bbox } from '../coordination/stac-catalog.js';
import type { TileSet } from '../coordination/tile-set.js';
import { tileOutputKey } from '../model/ids.js';
import type { ObjectStore } from '../store/object-store.js';
import { buildDirectories } from './directories.js';
import type { DirectoryEntry } from './directory.js';
import { PmtilesInputError } from './errors.js';
import { HEADER_BYTES, serializeHeader } from './header.js';

/** Tiles fetched ahead of the one being written: S3 GETs in flight, in order. */
const FETCH_AHEAD = 16;

const TILE_TYPES = { png: TileType.Png, webp: TileType.Webp } as const;

export interface PmtilesSource {
  readonly runId: string;
  /** Every level's done tiles (a run's TileSets, the base first). */
  readonly levels: readonly TileSet[];
  readonly format: keyof typeof TILE_TYPES;
  readonly name: string;
  readonly description: string;
}

interface Placed extends DirectoryEntry {
  readonly z: number;
  readonly x: number;
  readonly y: number;
}

/** Every tile with its PMTiles id, in id order, its bytes placed one after the other. */
function placeTiles(levels: readonly TileSet[]): Placed[] {
  const tiles: Omit<Placed, 'offset'>[] = [];
  for (const level of levels)
    for (let i = 0; i < level.count; i++) {
      const [z, x, y] = [level.z, level.x(i), level.y(i)];
      tiles.push({ z, x, y, tileId: zxyToTileId(z, x, y), length: level.bytes(i), runLength: 1 });
    }
  tiles.sort((a, b) => a.tileId - b.tileId);
  let offset = 0;
  return tiles.map((t) => {
    const placed = { ...t, offset };
    offset += t.length;
    return placed;
  });
}

/** The tiles' bytes in order, FETCH_AHEAD GETs in flight; each must be the size its marker says. */
async function* tileBytes(store: ObjectStore, source: PmtilesSource, tiles: readonly Placed[], ext: string) {
  const fetchTile = (t: Placed) =>
    store.getRange(tileOutputKey(source.runId, t, ext), 0, t.length - 1).then((bytes) => {
      if (bytes.byteLength !== t.length) {
        throw new PmtilesInputError(
          `tile ${t.z}/${t.x}/${t.y} is ${bytes.byteLength} bytes; its marker says ${t.length}`,
        );
      }
      return bytes;
    });
  const ahead: Promise<Uint8Array>[] = [];
  let next = 0;
  const fill = () => {
    while (ahead.length < FETCH_AHEAD && next < tiles.length) {
      const pending = fetchTile(tiles[next++]!);
      // Awaited in order below; a failure further ahead must not go unhandled meanwhile.
      pending.catch(() => {});
      ahead.push(pending);
    }
  };
  fill();
  while (ahead.length > 0) {
    const bytes = await ahead.shift()!;
    fill();
    yield bytes;
  }
}

/**
 * A PMTiles v3 archive of a run's display tiles, every level (docs/architecture.md#pmtiles): one
 * object MapLibre or Leaflet reads straight from S3 with the `pmtiles` protocol. The directories
 * come from the markers alone (each tile's size), so the archive is streamed in one pass: header,
 * root directory, metadata, leaf directories, then each tile's bytes in tile id order (clustered),
 * fetched a few ahead. Memory is the directory, not the tiles.
 */
export async function writePmtiles(store: ObjectStore, key: string, source: PmtilesSource) {
  const tiles = placeTiles(source.levels);
  if (tiles.length === 0) throw new PmtilesInputError('no tile to put in the archive');
  const directories = buildDirectories(tiles);
  const base = source.levels[0]!;
  const [west, south, east, north] = wgs84Bbox(base.z, base.minX, base.minY, base.maxX, base.maxY);
  const zooms = source.levels.map((l) => l.z);
  const metadata = gzipSync(
    JSON.stringify({
      name: source.name,
      description: source.description,
      type: 'baselayer',
      format: source.format,
    }),
  );
  const dataLength = tiles.reduce((n, t) => n + t.length, 0);
  const rootOffset = HEADER_BYTES;
  const metadataOffset = rootOffset + directories.root.length;
  const leafOffset = metadataOffset + metadata.length;
  const dataOffset = leafOffset + directories.leaves.length;
  const header = serializeHeader({
    rootDirectoryOffset: rootOffset,
    rootDirectoryLength: directories.root.length,
    jsonMetadataOffset: metadataOffset,
    jsonMetadataLength: metadata.length,
    leafDirectoryOffset: leafOffset,
    leafDirectoryLength: directories.leaves.length,
    tileDataOffset: dataOffset,
    tileDataLength: dataLength,
    numAddressedTiles: tiles.length,
    numTileEntries: tiles.length,
    numTileContents: tiles.length,
    clustered: true,
    internalCompression: Compression.Gzip,
    tileCompression: Compression.None,
    tileType: TILE_TYPES[source.format],
    minZoom: Math.min(...zooms),
    maxZoom: Math.max(...zooms),
    minLon: west,
    minLat: south,
    maxLon: east,
    maxLat: north,
    centerZoom: Math.min(...zooms),
    centerLon: (west + east) / 2,
    centerLat: (south + north) / 2,
  });
  const ext = source.format;
  const chunks = async function* () {
    yield header;
    yield directories.root;
    yield metadata;
    yield directories.leaves;
    yield* tileBytes(store, source, tiles, ext);
  };
  await store.putStream(key, chunks(), { contentType: 'application/vnd.pmtiles' });
  return { key, tiles: tiles.length, bytes: dataOffset + dataLength, leaves: directories.leafCount };
}
