import { randomUUID } from 'node:crypto';
import { readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import PQueue from 'p-queue';
import type { Ledger } from '../../../../lib/ledger/ledger.js';
import { tileOutputKey } from '../../../../lib/model/ids.js';
import type { RunRecord, TileOutput } from '../../../../lib/model/run.js';
import { isDisplayFormat, TILE_FORMAT_SPECS, tileFormatOf } from '../../../../lib/model/tile-format.js';
import type { ObjectStore } from '../../../../lib/store/object-store.js';
import { RenderBusyError, RenderFailedError, TileNotRenderableError } from './errors.js';
import { type GdalTool, runGdal } from './gdal-tools.js';
import { renderCommand } from './render-args.js';
import { createRenderCache, type RenderCache } from './render-cache.js';
import { createRunLooks, type RunLook } from './run-looks.js';

export interface TileRendererOptions {
  readonly store: ObjectStore;
  readonly ledger: Ledger;
  readonly gdal?: GdalTool;
  /** Bytes of PNG kept on disk (least recently used go first). */
  readonly maxBytes?: number;
  /** GDAL processes at once: the machine's cores belong to the workers first. */
  readonly concurrency?: number;
  /** Renders waiting beyond this are refused (503): a page zoomed out cannot pile up work. */
  readonly queueLimit?: number;
  /** One GDAL command's budget. */
  readonly timeoutMs?: number;
  /** Where the cache directory is made (the system's temp dir by default). */
  readonly tempParent?: string;
}

export interface TileRenderer {
  /** The tile as a PNG; TileNotRenderableError until its marker exists. */
  render(runId: string, tile: { z: number; x: number; y: number }): Promise<Buffer>;
  /** How the run's tiles are drawn, once one has been (for the page's legend). */
  look(runId: string): RunLook | undefined;
  readonly cache: RenderCache;
  /** Renders waiting and running. */
  readonly pending: number;
  /** Aborts running renders (their GDAL processes die), drops queued ones, deletes the cache. */
  close(): Promise<void>;
}

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * Draws a run's tiles as PNGs on request (docs/architecture.md: the run-control page). GDAL
 * works in child processes through a bounded queue, so the API's event loop only waits;
 * concurrent requests for one tile share one render; results are cached on disk by the tile's
 * ETag and the run's look, so a re-done tile or a re-scaled ramp is drawn afresh.
 */
export function createTileRenderer(options: TileRendererOptions): TileRenderer {
  const gdal = options.gdal ?? runGdal;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const queueLimit = options.queueLimit ?? 256;
  const cache = createRenderCache(options.maxBytes ?? 64 * 1024 * 1024, options.tempParent);
  const queue = new PQueue({ concurrency: options.concurrency ?? 2 });
  const closing = new AbortController();
  const looks = createRunLooks({
    store: options.store,
    ledger: options.ledger,
    gdal,
    dir: cache.dir,
    timeoutMs,
  });
  const inFlight = new Map<string, Promise<Buffer>>();
  // The draws themselves: p-queue settles an aborted job at once, before its GDAL process is
  // dead, so close() waits for these rather than for the queue to be idle.
  const drawing = new Set<Promise<unknown>>();
  // Read on every request: a ramp's range follows the run's progress (run-looks.ts).
  const runOf = async (runId: string) => {
    const run = await options.ledger.getRun(runId);
    if (!run) throw new TileNotRenderableError(`no run ${runId}`);
    return run;
  };

  const cached = async (key: string) => {
    const hit = cache.get(key);
    if (!hit) return undefined;
    try {
      return await readFile(hit.file);
    } catch (error) {
      if (isMissing(error)) return undefined; // evicted meanwhile: draw it again
      throw error;
    }
  };

  // A display run's tiles are pictures already: a PNG is served as it is, a WebP converted.
  const drawDisplay = async (output: TileOutput, ext: string, base: string, signal: AbortSignal) => {
    const src = join(cache.dir, `${randomUUID()}.${ext}`);
    const png = join(cache.dir, `${randomUUID()}.png`);
    try {
      await options.store.download(output.key, src, { signal, pin: { etag: output.etag } });
      if (ext === 'png') await rename(src, png);
      else
        await gdal({ file: 'gdal_translate', args: ['-q', '-of', 'PNG', src, png] }, { signal, timeoutMs });
      const bytes = await readFile(png);
      cache.put(base, { file: png, bytes: bytes.byteLength });
      return bytes;
    } catch (error) {
      await rm(png, { force: true });
      throw new RenderFailedError(`cannot draw ${output.key}: ${(error as Error).message}`, { cause: error });
    } finally {
      await rm(src, { force: true });
    }
  };

  const draw = async (run: RunRecord, output: TileOutput, base: string, signal: AbortSignal) => {
    const src = join(cache.dir, `${randomUUID()}.tif`);
    const png = join(cache.dir, `${randomUUID()}.png`);
    try {
      await options.store.download(output.key, src, { signal });
      // The look (style, ramp range) comes from the run's tiles; the first render decides it.
      const current = await looks.of(run, src, signal);
      const key = `${base} ${current.fingerprint}`;
      const hit = await cached(key);
      if (hit) return hit;
      await gdal(renderCommand(current.style, src, png, current.colourFile), { signal, timeoutMs });
      const bytes = await readFile(png);
      cache.put(key, { file: png, bytes: (await stat(png)).size });
      return bytes;
    } catch (error) {
      await rm(png, { force: true });
      if (signal.aborted) throw new RenderFailedError('the renderer is closing', { cause: error });
      throw new RenderFailedError(`cannot draw ${output.key}: ${(error as Error).message}`, { cause: error });
    } finally {
      await rm(src, { force: true });
    }
  };

  return {
    cache,
    get pending() {
      return queue.size + queue.pending;
    },
    look: (runId) => looks.known(runId),
    async render(runId, tile) {
      if (closing.signal.aborted) throw new RenderBusyError('the renderer is closed');
      const run = await runOf(runId);
      // The tile's object: written before its marker (docs/architecture.md), so once the page
      // sees the sub-tile DONE it is there; its ETag tells a re-done tile from the one cached.
      const format = tileFormatOf(run.params);
      const ext = TILE_FORMAT_SPECS[format].ext;
      const key = tileOutputKey(runId, tile, ext);
      const head = await options.store.head(key);
      if (!head) {
        throw new TileNotRenderableError(`sub-tile ${tile.z}/${tile.x}/${tile.y} of ${runId} is not done`);
      }
      const output: TileOutput = { key, etag: head.etag, bytes: head.bytes };
      const base = `${runId} ${tile.z}/${tile.x}/${tile.y} ${output.etag}`;
      if (isDisplayFormat(format)) {
        const hit = await cached(base);
        if (hit) return hit;
      }
      const known = looks.known(runId);
      if (known && !looks.stale(known, run)) {
        const hit = await cached(`${base} ${known.fingerprint}`);
        if (hit) return hit;
      }
      const running = inFlight.get(base);
      if (running) return running;
      if (queue.size >= queueLimit) {
        throw new RenderBusyError(`${queue.size} renders are waiting; ask again shortly`);
      }
      const job = queue
        .add(
          ({ signal }) => {
            const drawn = isDisplayFormat(format)
              ? drawDisplay(output, ext, base, signal ?? closing.signal)
              : draw(run, output, base, signal ?? closing.signal);
            const settled = drawn.catch(() => {});
            drawing.add(settled);
            void settled.finally(() => drawing.delete(settled));
            return drawn;
          },
          { signal: closing.signal },
        )
        .finally(() => inFlight.delete(base));
      inFlight.set(base, job);
      return job;
    },
    async close() {
      closing.abort(new Error('the page server is stopping'));
      queue.clear();
      await queue.onIdle();
      await Promise.all(drawing);
      cache.close();
    },
  };
}
