import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LRUCache } from 'lru-cache';
import type { Ledger } from '../../../../lib/ledger/ledger.js';
import { listTiles } from '../../../../lib/ledger/tile-records.js';
import type { RunRecord, TileOutput } from '../../../../lib/model/run.js';
import type { ObjectStore } from '../../../../lib/store/object-store.js';
import { colourReliefFile, type ValueRange } from './colour-ramp.js';
import type { GdalTool } from './gdal-tools.js';
import { bandsInfoSchema, type RenderStyle, renderStyleOf } from './render-style.js';
import { pooledRange, spread, tileStats } from './sample-range.js';

/** How a run's tiles are drawn now; the fingerprint goes into every cache key drawn with it. */
export interface RunLook {
  readonly style: RenderStyle;
  /** A ramp's range, from the run's own tiles. */
  readonly range?: ValueRange;
  readonly colourFile?: string;
  readonly fingerprint: string;
  /** Sampled after the run ended: it never changes again. */
  readonly final: boolean;
  /** Sub-tiles done when the range was sampled. */
  readonly sampledAtDone: number;
}

/** Tiles whose statistics make a ramp's range: enough to be representative, few enough to be quick. */
const SAMPLE_TILES = 12;
/** Ledger records read looking for done tiles to sample (a million-tile run has a million). */
const SAMPLE_SCAN = 10_000;
const ACTIVE = new Set(['SPLITTING', 'RUNNING', 'DRAINING']);

export interface RunLooksDeps {
  readonly store: ObjectStore;
  readonly ledger: Ledger;
  readonly gdal: GdalTool;
  /** The renderer's own directory (samples and colour files live there). */
  readonly dir: string;
  readonly timeoutMs: number;
}

/**
 * Each run's look. RGB and hillshade are fixed by the first tile; a ramp's range is sampled from
 * the tiles done so far and sampled again when the done count has doubled and once the run has
 * ended, so early tiles do not fix the scale of the whole run.
 */
export function createRunLooks(deps: RunLooksDeps) {
  const looks = new LRUCache<string, RunLook>({
    max: 16,
    dispose: (look) => {
      if (look.colourFile) rm(look.colourFile, { force: true }).catch(() => {});
    },
  });
  const computing = new Map<string, Promise<RunLook>>();

  const stale = (look: RunLook, run: RunRecord) =>
    look.style.kind === 'ramp' &&
    !look.final &&
    (!ACTIVE.has(run.status) || run.counters.done >= 2 * Math.max(1, look.sampledAtDone));

  const sampleRange = async (run: RunRecord, signal: AbortSignal): Promise<ValueRange | undefined> => {
    const done: TileOutput[] = [];
    let read = 0;
    for await (const t of listTiles(deps.ledger, run.runId)) {
      if (t.state === 'DONE' && t.output) done.push(t.output);
      read += 1;
      if (read >= SAMPLE_SCAN) break;
    }
    const stats = [];
    for (const output of spread(done, SAMPLE_TILES)) {
      const file = join(deps.dir, `${randomUUID()}.tif`);
      try {
        await deps.store.download(output.key, file, { signal });
        const s = await tileStats(deps.gdal, file, { signal, timeoutMs: deps.timeoutMs });
        if (s) stats.push(s);
      } finally {
        await rm(file, { force: true });
      }
    }
    return pooledRange(stats);
  };

  const compute = async (run: RunRecord, tile: string, signal: AbortSignal): Promise<RunLook> => {
    const previous = looks.get(run.runId);
    let style = previous?.style;
    if (!style) {
      const info = await deps.gdal(
        { file: 'gdalinfo', args: ['-json', tile] },
        { signal, timeoutMs: deps.timeoutMs },
      );
      style = renderStyleOf(run.operation, bandsInfoSchema.parse(JSON.parse(info)));
    }
    const final = !ACTIVE.has(run.status);
    if (style.kind !== 'ramp') {
      return { style, fingerprint: style.kind, final: true, sampledAtDone: run.counters.done };
    }
    const range = (await sampleRange(run, signal)) ?? { min: 0, max: 1 };
    const colourFile = join(deps.dir, `ramp-${randomUUID()}.txt`);
    await writeFile(colourFile, colourReliefFile(range));
    return {
      style,
      range,
      colourFile,
      fingerprint: `ramp ${range.min} ${range.max}`,
      final,
      sampledAtDone: run.counters.done,
    };
  };

  return {
    known: (runId: string) => looks.get(runId),
    stale,
    /** The run's current look; `tile` is a downloaded tile of it (to read the band layout). */
    async of(run: RunRecord, tile: string, signal: AbortSignal): Promise<RunLook> {
      const current = looks.get(run.runId);
      if (current && !stale(current, run)) return current;
      const pending = computing.get(run.runId);
      if (pending) return pending;
      const next = compute(run, tile, signal)
        .then((look) => {
          looks.set(run.runId, look);
          return look;
        })
        .finally(() => computing.delete(run.runId));
      computing.set(run.runId, next);
      return next;
    },
  };
}
