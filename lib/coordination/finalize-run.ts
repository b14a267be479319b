import { basename } from 'node:path';
import { isCollectionKey } from '../collection/collection-manifest.js';
import { readRunMembers } from '../collection/run-members.js';
import { RunNotFoundError } from '../ledger/errors.js';
import type { Ledger } from '../ledger/ledger.js';
import { listTiles } from '../ledger/tile-records.js';
import { runPrefix } from '../model/ids.js';
import type { RunCounters, TileError } from '../model/run.js';
import { isDisplayFormat, TILE_FORMAT_SPECS, tileFormatOf } from '../model/tile-format.js';
import { writePmtiles } from '../pmtiles/write-pmtiles.js';
import { readSourceHeader } from '../source/read-source-header.js';
import type { ObjectStore } from '../store/object-store.js';
import { MosaicInputError } from './errors.js';
import type { MosaicBands } from './mosaic-vrt.js';
import { RUN_OUTPUTS } from './run-outputs.js';
import { TileSet } from './tile-set.js';
import { writeMosaic } from './write-mosaic.js';
import { writeStac } from './write-stac.js';

/** Tiles per side of a mosaic block (64² = 4,096 tiles, one block VRT and one STAC part each). */
export const BLOCK_TILES = 64;
/** Sub-tiles listed by name in the summary; the counters account for all of them. */
const LISTED_PROBLEMS = 1_000;

export interface FinalizeResult {
  readonly runId: string;
  readonly status: 'SUCCEEDED' | 'FAILED';
  readonly counters: RunCounters;
  /** Keys of what was written, under the run's output prefix (apart from its tiles). */
  readonly outputs: {
    readonly prefix: string;
    readonly mosaic?: string;
    readonly stac?: string;
    /** Display tiles: the PMTiles archive of every level. */
    readonly pmtiles?: string;
    readonly summary: string;
  };
  readonly reason?: string;
  /** Each phase's figures and its time since finalize began (markers read, mosaic, STAC). */
  readonly phases: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

export interface FinalizeDeps {
  readonly ledger: Ledger;
  readonly store: ObjectStore;
  readonly now?: () => Date;
  /** Progress of the phases (markers read, mosaic, STAC), for the function's logs and benchmarks. */
  readonly onPhase?: (phase: string, fields: Record<string, number>) => void;
}

type Problem = { tileId: string; z: number; x: number; y: number; state: string; error?: TileError };

/** Display tiles' bands, whatever the source: 8-bit red, green, blue and alpha (display-output.ts). */
const DISPLAY_BANDS: MosaicBands = {
  count: 4,
  dataType: 'Byte',
  nodata: null,
  colorInterp: ['Red', 'Green', 'Blue', 'Alpha'],
};

/** Every GeoTIFF tile of a run shares the band layout: one header read (ranged GETs). */
async function tileBands(store: ObjectStore, key: string): Promise<MosaicBands> {
  const { header } = await readSourceHeader(store, key);
  if (header.kind !== 'raster') throw new MosaicInputError(`tile ${key} is not a raster`);
  return { count: header.bands, dataType: header.dataType, nodata: header.nodata };
}

/**
 * The end of a run: the mosaic (a VRT per block of tiles under one top-level VRT) and the STAC
 * catalogue (items in parts) over every marked tile, and a summary with an exact account.
 * Memory and time stay bounded for a million sub-tiles: one pass over the markers into typed
 * arrays, then streamed uploads (docs/architecture.md, "Finalize and outputs"). The run SUCCEEDS only if
 * every sub-tile is done.
 */
export async function finalizeRun(deps: FinalizeDeps, runId: string): Promise<FinalizeResult> {
  const run = await deps.ledger.getRun(runId);
  if (!run) throw new RunNotFoundError(runId);
  const finishedAt = (deps.now?.() ?? new Date()).toISOString();
  const prefix = runPrefix(runId);
  const phaseStart = Date.now();
  // One set per zoom: the base level's (the run's zoom), and a pyramid's lower levels'.
  const byZoom = new Map<number, TileSet>();
  // The base level: the run's zoom (a pyramid's top), else the deepest level with a tile.
  const paramsZoom = typeof run.params.zoom === 'number' ? run.params.zoom : undefined;
  // The band layout comes from one tile's header: the top-left one, whatever order markers arrive in.
  const samples = new Map<number, { key: string; x: number; y: number }>();
  const problems: Problem[] = [];
  let problemCount = 0;
  for await (const t of listTiles(deps.ledger, runId, { parallel: true })) {
    if (t.state === 'DONE' && t.output) {
      const level = byZoom.get(t.z) ?? new TileSet();
      byZoom.set(t.z, level);
      level.add(t.z, t.x, t.y, t.output.bytes);
      const sample = samples.get(t.z);
      if (!sample || t.y < sample.y || (t.y === sample.y && t.x < sample.x))
        samples.set(t.z, { key: t.output.key, x: t.x, y: t.y });
    } else if (t.state !== 'DONE') {
      problemCount += 1;
      if (problems.length < LISTED_PROBLEMS)
        problems.push({ tileId: t.tileId, z: t.z, x: t.x, y: t.y, state: t.state, error: t.error });
    }
  }

  const phases: Record<string, Record<string, number>> = {};
  const phase = (name: string, fields: Record<string, number> = {}) => {
    phases[name] = { ...fields, ms: Date.now() - phaseStart };
    deps.onPhase?.(name, phases[name]);
  };
  const baseZoom = paramsZoom ?? Math.max(-1, ...byZoom.keys());
  const tiles = byZoom.get(baseZoom) ?? new TileSet();
  const sample = samples.get(baseZoom);
  const lower = [...byZoom.values()]
    .filter((level) => level.z !== baseZoom)
    .sort((a, b) => b.z - a.z)
    .map((level) => ({ tiles: level, blocks: level.blocks(BLOCK_TILES) }));
  const tileCount = [...byZoom.values()].reduce((n, level) => n + level.count, 0);
  phase('markers read', { tiles: tileCount, problems: problemCount });
  let mosaic: string | undefined;
  let stac: string | undefined;
  let pmtiles: string | undefined;
  if (sample) {
    const format = tileFormatOf(run.params);
    const spec = TILE_FORMAT_SPECS[format];
    const display = isDisplayFormat(format);
    const bands = display ? DISPLAY_BANDS : await tileBands(deps.store, sample.key);
    const media = display ? { ext: spec.ext, type: spec.contentType, role: 'visual' } : undefined;
    const blocks = tiles.blocks(BLOCK_TILES);
    // No object keys in what a catalogue shows: the source by its file name only.
    const source = basename(run.source.key);
    // Asked of a collection only: a HEAD of a missing key is a 403 to a role without ListBucket.
    const members = isCollectionKey(run.source.key)
      ? (await readRunMembers(deps.store, runId))?.members.map((m) => basename(m.key))
      : undefined;
    const dated = run.sourceDatetime
      ? `dated ${run.sourceDatetime} by the source's own header`
      : `dated by the run (${source} records no date)`;
    const of = members ? `${source} (a collection of ${members.length} files)` : source;
    const zooms =
      lower.length === 0
        ? `${tiles.count} tiles at zoom ${tiles.z}`
        : `${tileCount} tiles at zooms ${lower.at(-1)!.tiles.z}-${tiles.z} (${tiles.count} at zoom ${tiles.z}, each lower zoom made from the one above)`;
    const description = `${run.operation} tiles of ${of} (geohub run ${runId}, ${run.createdAt} to ${finishedAt}): ${zooms}, ${dated}`;
    // Mosaic, catalogue and archive side by side: none reads another, and a run's end waits on all.
    [mosaic, stac, pmtiles] = await Promise.all([
      writeMosaic(deps.store, prefix, runId, tiles, blocks, BLOCK_TILES, bands, undefined, spec.ext).then(
        async (key) => {
          // A pyramid's lower levels: a mosaic each (mosaic-<z>.vrt), one after the other.
          for (const level of lower)
            await writeMosaic(
              deps.store,
              prefix,
              runId,
              level.tiles,
              level.blocks,
              BLOCK_TILES,
              bands,
              level.tiles.z,
              spec.ext,
            );
          phase('mosaic written', { blocks: blocks.length + lower.reduce((n, l) => n + l.blocks.length, 0) });
          return key;
        },
      ),
      writeStac(deps.store, prefix, {
        runId,
        sourceName: source,
        description,
        mosaic: true,
        ...(members ? { members } : {}),
        dates: { datetime: run.sourceDatetime ?? run.createdAt, created: run.createdAt },
        // The items' time: the source's date, or the run's span when it has none.
        interval: run.sourceDatetime ? [run.sourceDatetime, run.sourceDatetime] : [run.createdAt, finishedAt],
        tiles,
        blocks,
        ...(lower.length > 0 ? { lower } : {}),
        ...(media ? { media } : {}),
      }).then((key) => {
        phase('stac written', { parts: blocks.length });
        return key;
      }),
      format === 'gtiff'
        ? undefined
        : writePmtiles(deps.store, `${prefix}${RUN_OUTPUTS.pmtiles}`, {
            runId,
            levels: [tiles, ...lower.map((l) => l.tiles)],
            format,
            name: `${source}, tiled by geohub`,
            description,
          }).then((archive) => {
            phase('pmtiles written', { tiles: archive.tiles, leaves: archive.leaves });
            return archive.key;
          }),
    ]);
  }

  const c = run.counters;
  const complete = c.done === c.total && problemCount === 0;
  const reason = complete
    ? undefined
    : `${c.total - c.done} of ${c.total} sub-tiles not done: ${c.failed} failed, ${c.parked} parked, ` +
      `${c.cancelled} cancelled, ${c.total - c.done - c.failed - c.parked - c.cancelled} unaccounted (dead-lettered)`;
  const status = complete ? 'SUCCEEDED' : 'FAILED';
  const summary = `${prefix}${RUN_OUTPUTS.summary}`;
  await deps.store.putText(
    summary,
    JSON.stringify(
      // The run's warnings (a CRS planned without its grid, docs/crs.md#grids) travel with its result.
      {
        runId,
        status,
        reason,
        warnings: run.warnings,
        counters: c,
        problemCount,
        problems,
        tiles: tileCount,
        finishedAt,
      },
      null,
      2,
    ),
    { contentType: 'application/json' },
  );
  await deps.ledger.updateRun(runId, { status, reason }, ['RUNNING']);
  return {
    runId,
    status,
    counters: c,
    outputs: { prefix, mosaic, stac, ...(pmtiles ? { pmtiles } : {}), summary },
    reason,
    phases,
  };
}
