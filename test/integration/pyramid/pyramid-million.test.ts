import { describe, expect, it } from 'vitest';
import { writeManifest } from '../../../lib/manifest/write-manifest.js';
import { tileIdFor } from '../../../lib/model/ids.js';
import { MAX_MESSAGE_BYTES, metatileMessage } from '../../../lib/model/message.js';
import { type Metatile, metatileSchema } from '../../../lib/model/metatile.js';
import { alignedMetatiles, lowerLevelTiles } from '../../../lib/pyramid/pyramid-plan.js';
import { writeLevels } from '../../../lib/pyramid/write-levels.js';
import type { TileCoord } from '../../../lib/tiling/tile-coord.js';
import { payloadBytes } from '../../../local/statemachine/history-events.js';
import { createMemoryStore } from '../../support/memory-store.js';

/** Step Functions' limit on a state's input or output. */
const PAYLOAD_LIMIT = 256 * 1024;

describe('a pyramid of a million base tiles, as split writes it', () => {
  it('travels through the state machine as a reference of a few KiB, every line a message under the cap', async () => {
    const runId = 'r-pyramid-million';
    const tileId = (t: TileCoord) => tileIdFor(runId, 'raster-xyz', 'v1', t);
    const store = createMemoryStore();
    // 1,000 × 1,000 tiles at zoom 18 from an odd corner, down to zoom 8, where they fit one or two tiles.
    const base = [[{ z: 18, minX: 70_001, minY: 90_003, maxX: 71_000, maxY: 91_002 }]];
    const plan = { minZoom: 8, maxZoom: 18, base, tilesPerMessage: 16 };
    const lower = lowerLevelTiles(plan);
    const written = await writeLevels(store, plan, { runId, tileId, partLines: 3_000 });
    const ref = await writeManifest(
      store,
      (function* () {
        for (const m of alignedMetatiles(base, 18, tileId, 16)) yield written.linkBase(m);
        written.checkBaseComplete();
      })(),
      { runId, partLines: 3_000, tilesPerMessage: 16, levels: written.levels },
    );
    const lowerTotal = [...lower.values()].reduce((a, b) => a + b, 0);
    expect(ref.total).toBe(1_000_000 + lowerTotal);
    // Each level about a quarter of the one above (333,000 lower tiles in all, plus the edges).
    expect(lower.get(17)).toBe(501 * 501);
    expect(lowerTotal).toBeGreaterThan(333_000);
    expect(lowerTotal).toBeLessThan(340_000);

    // What the state machine carries: the split's result with this reference, far under 256 KiB.
    const splitResult = {
      runId,
      operation: 'raster-xyz',
      zoom: 18,
      minZoom: 8,
      total: ref.total,
      manifest: ref,
    };
    const bytes = payloadBytes(splitResult);
    process.stdout.write(
      `million-tile pyramid: ${ref.parts.length} base parts, ${ref.levels?.parts.length} level parts, reference ${bytes} bytes; ` +
        `tiles per level ${JSON.stringify(Object.fromEntries(lower))}\n`,
    );
    expect(bytes).toBeLessThan(PAYLOAD_LIMIT / 16);

    // Every line of every level is a message under the cap, its parent pointer within one part.
    let longest = 0;
    let lines = 0;
    for (const part of [...ref.parts, ...(ref.levels?.parts ?? [])]) {
      for (const line of (await store.getText(part.key)).trimEnd().split('\n')) {
        const m = metatileSchema.parse(JSON.parse(line)) as Metatile;
        longest = Math.max(longest, Buffer.byteLength(metatileMessage(runId, m)));
        if (m.up) {
          const parentPart = ref.levels?.parts[m.up.part];
          expect(m.up.offset + m.up.bytes).toBeLessThanOrEqual(parentPart?.bytes ?? 0);
        }
        lines++;
      }
    }
    expect(longest).toBeLessThan(MAX_MESSAGE_BYTES);
    expect(lines).toBeGreaterThan(1_000_000 / 16);
  }, 300_000);
});
