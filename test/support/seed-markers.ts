import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import type { Ledger } from '../../lib/ledger/ledger.js';
import { tileIdFor, tileOutputKey } from '../../lib/model/ids.js';
import { metatileOf } from '../../lib/model/metatile.js';
import type { TileOutput } from '../../lib/model/run.js';
import type { ObjectStore } from '../../lib/store/object-store.js';

/** What a seeded tile holds: its column and row in the run, as column + 256 × row (side ≤ 256). */
export function tileValue(run: SeededRun, tile: { x: number; y: number }): number {
  return tile.x - run.x0 + 256 * (tile.y - run.y0);
}

/**
 * Tiles of any value from one GDAL-made template (a DEFLATE GeoTIFF of one 256-row strip): each is
 * the template with its own compressed strip appended and the strip's offset and size pointed at
 * it. A few hundred bytes a tile, and no GDAL process per tile (thousands of them took minutes).
 */
function tileMaker(templatePath: string): (value: number) => Buffer {
  const template = readFileSync(templatePath);
  if (template.toString('latin1', 0, 2) !== 'II' || template.readUInt16LE(2) !== 42)
    throw new Error('seeding: the template is not a little-endian classic TIFF');
  const ifd = template.readUInt32LE(4);
  const entry = (tag: number) => {
    for (let i = 0; i < template.readUInt16LE(ifd); i++) {
      const at = ifd + 2 + 12 * i;
      if (template.readUInt16LE(at) === tag && template.readUInt32LE(at + 4) === 1) return at + 8;
    }
    throw new Error(`seeding: the template has no single-strip tag ${tag}`);
  };
  const [offsetAt, countAt] = [entry(273), entry(279)]; // StripOffsets, StripByteCounts
  return (value) => {
    const pixels = Buffer.alloc(256 * 256 * 2);
    for (let i = 0; i < pixels.length; i += 2) pixels.writeUInt16LE(value, i);
    const strip = deflateSync(pixels);
    const tile = Buffer.concat([template, strip]);
    tile.writeUInt32LE(template.length, offsetAt);
    tile.writeUInt32LE(strip.length, countAt);
    return tile;
  };
}

export interface SeededRun {
  readonly runId: string;
  readonly z: number;
  readonly x0: number;
  readonly y0: number;
  /** Tiles a side: side² sub-tiles. */
  readonly side: number;
}

/**
 * A run whose every sub-tile is marked DONE through the ledger, as workers mark them (claim,
 * then markDone per metatile, 4×4 as the split makes them), each pointing at a small tile (one
 * 256×256 UInt16 GeoTIFF). With `everyObject` each tile's object is uploaded, and says where it
 * belongs: its pixels are its column and row in the run (`tileValue`), so a mosaic that puts a
 * tile in the wrong place shows it. Otherwise only the top-left one is uploaded, which
 * finalize reads the band layout from (a million uploads would measure s3rver, not finalize).
 */
export async function seedDoneRun(
  deps: { ledger: Ledger; store: ObjectStore },
  run: SeededRun,
  options: {
    everyObject: boolean;
    parallel?: number;
    /** Tiles a side of each metatile (the split makes 4×4); larger ones seed faster. */
    metatileSide?: number;
    onProgress?: (done: number) => void;
  },
): Promise<void> {
  const { ledger, store } = deps;
  const dir = mkdtempSync(join(tmpdir(), 'geohub-seed-'));
  try {
    const placeholder = join(dir, 'tile.tif');
    execFileSync('gdal_create', [
      '-q',
      '-of',
      'GTiff',
      '-outsize',
      '256',
      '256',
      '-bands',
      '1',
      '-ot',
      'UInt16',
      '-co',
      'COMPRESS=DEFLATE',
      '-co',
      'BLOCKYSIZE=256',
      '-a_srs',
      'EPSG:3857',
      '-a_ullr',
      '0',
      '256',
      '256',
      '0',
      placeholder,
    ]);
    const makeTile = tileMaker(placeholder);
    const first = tileOutputKey(run.runId, { z: run.z, x: run.x0, y: run.y0 });
    const head = await store.putFile(first, placeholder);
    await ledger.createRun({
      runId: run.runId,
      status: 'RUNNING',
      source: { bucket: store.bucket, key: 'incoming/seeded.tif', version: '1' },
      operation: 'raster-xyz',
      params: {},
      paramsVersion: 'seed',
      total: run.side * run.side,
    });
    const m = options.metatileSide ?? 4;
    const blocks: { bx: number; by: number }[] = [];
    for (let by = 0; by < run.side; by += m) for (let bx = 0; bx < run.side; bx += m) blocks.push({ bx, by });
    let next = 0;
    let marked = 0;
    const lane = async (laneIndex: number) => {
      const own = join(dir, `lane-${laneIndex}.tif`);
      while (next < blocks.length) {
        const { bx, by } = blocks[next++]!;
        const tiles = [];
        for (let y = by; y < Math.min(by + m, run.side); y++)
          for (let x = bx; x < Math.min(bx + m, run.side); x++) {
            const t = { z: run.z, x: run.x0 + x, y: run.y0 + y };
            tiles.push({ id: tileIdFor(run.runId, 'raster-xyz', 'seed', t), ...t });
          }
        const metatile = metatileOf(tiles);
        const outputs = new Map<string, TileOutput>();
        for (const t of tiles) {
          const key = tileOutputKey(run.runId, t);
          let output = { key, etag: head.etag, bytes: head.bytes };
          if (options.everyObject && key !== first) {
            writeFileSync(own, makeTile(tileValue(run, t)));
            const put = await store.putFile(key, own);
            output = { key, etag: put.etag, bytes: put.bytes };
          }
          outputs.set(t.id, output);
        }
        const claimed = await ledger.claim(run.runId, metatile, 'seeder', 600_000);
        if (claimed.outcome !== 'claimed') throw new Error(`seeding: claim found ${claimed.outcome}`);
        await claimed.claim.markDone(outputs, 1);
        marked += tiles.length;
        options.onProgress?.(marked);
      }
    };
    await Promise.all(Array.from({ length: options.parallel ?? 8 }, (_, i) => lane(i)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
