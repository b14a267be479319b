import { tileIdFor } from '../../lib/model/ids.js';
import type { Metatile } from '../../lib/model/metatile.js';
import { alignedMetatiles } from '../../lib/pyramid/pyramid-plan.js';
import { writeLevels } from '../../lib/pyramid/write-levels.js';
import type { SendResult } from '../../lib/queue/work-queue.js';
import type { TileCoord } from '../../lib/tiling/tile-coord.js';
import { createMemoryLedger } from './memory-ledger.js';
import { createMemoryStore } from './memory-store.js';
import { createRecordingQueue } from './recording-queue.js';

/**
 * A RUNNING pyramid of zooms 3-4 over `width` × 8 tiles at zoom 4, in memory: its lower level's
 * lines written as split writes them, and its base metatiles linked to their parents (four per
 * parent of 16 tiles). `failWith` makes the queue's sends fail (recording-queue.ts).
 */
export async function twoLevelPyramid(
  runId: string,
  width = 8,
  failWith?: (bodies: readonly string[], call: number) => SendResult['failed'],
) {
  const ledger = createMemoryLedger();
  const store = createMemoryStore();
  const queue = createRecordingQueue(failWith);
  const tileId = (t: TileCoord) => tileIdFor(runId, 'raster-xyz', 'v1', t);
  const base = [[{ z: 4, minX: 0, minY: 0, maxX: width - 1, maxY: 7 }]];
  await ledger.createRun({
    runId,
    status: 'RUNNING',
    source: { bucket: 'b', key: 'incoming/x.tif', version: '1' },
    operation: 'raster-xyz',
    params: { zoom: 4, minZoom: 3 },
    paramsVersion: 'v1',
    total: width * 8 + (width / 2) * 4,
  });
  const plan = { minZoom: 3, maxZoom: 4, base, tilesPerMessage: 16 };
  const written = await writeLevels(store, plan, { runId, tileId, partLines: 10 });
  const children: Metatile[] = [...alignedMetatiles(base, 4, tileId, 16)].map((m) => written.linkBase(m));
  return { ledger, store, queue, runId, children };
}
