import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Ledger } from '../../lib/ledger/ledger.js';
import { tileIdFor, tileOutputKey } from '../../lib/model/ids.js';
import { metatileOf } from '../../lib/model/metatile.js';
import type { TileOutput } from '../../lib/model/run.js';
import type { ObjectStore } from '../../lib/store/object-store.js';

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
 * then markDone per metatile, 4×4 as the split makes them), each pointing at a small placeholder tile (one 256×256
 * GeoTIFF). With `everyObject` each tile's object is uploaded; otherwise only the top-left one,
 * which finalize reads the band layout from (a million uploads would measure s3rver, not finalize).
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
      'Byte',
      '-co',
      'COMPRESS=DEFLATE',
      '-a_srs',
      'EPSG:3857',
      '-a_ullr',
      '0',
      '256',
      '256',
      '0',
      placeholder,
    ]);
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
    const lane = async () => {
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
          if (options.everyObject && key !== first) await store.putFile(key, placeholder);
          outputs.set(t.id, { key, etag: head.etag, bytes: head.bytes });
        }
        const claimed = await ledger.claim(run.runId, metatile, 'seeder', 600_000);
        if (claimed.outcome !== 'claimed') throw new Error(`seeding: claim found ${claimed.outcome}`);
        await ledger.markDone(run.runId, metatile, 'seeder', outputs, 1);
        marked += tiles.length;
        options.onProgress?.(marked);
      }
    };
    await Promise.all(Array.from({ length: options.parallel ?? 8 }, lane));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
