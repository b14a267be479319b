import type { OverheadFigures } from '../overhead.js';
import { crossover } from './crossover.js';
import { type Spread, showSpread } from './stats.js';

/**
 * The overhead rows: geohub against the raw tool and against GDAL's tiler, each counted both ways
 * (with `geohub run`'s start-up and without it) and, where the two made a different number of
 * tiles, per 1,000 tiles. A ratio is the raw quotient of the two medians, printed to three
 * decimals, and a target is met only when that quotient meets it: 0.796 is not "×0.8" and
 * 0.801 does not meet ≤ 0.8.
 */

/** "×0.796" */
export const showRatio = (r: number) => `×${r.toFixed(3)}`;

/** "met" only when the raw ratio is within the target. */
export const judge = (r: number, target: number) =>
  r <= target ? `met (${showRatio(r)} ≤ ${target})` : `**not met** (${showRatio(r)} > ${target})`;

/** Seconds per 1,000 tiles of a median. */
const perThousand = (s: Spread, tiles: number) => (s.median / tiles) * 1000;

/** geohub's two times (without, with start-up) against a contender's, per 1,000 tiles when the counts differ. */
export function againstPeer(o: OverheadFigures, peer: Spread, peerTiles: number) {
  const same = peerTiles === o.tiles;
  const g = { run: o.geohub.run, withStartup: o.geohub.withStartup };
  const r = (s: Spread) =>
    same ? s.median / peer.median : perThousand(s, o.tiles) / perThousand(peer, peerTiles);
  return {
    same,
    without: r(g.run),
    with: r(g.withStartup),
    onUp: o.geohub.withUp ? r(o.geohub.withUp) : undefined,
  };
}

function perThousandNote(o: OverheadFigures, peer: Spread, peerTiles: number): string {
  return (
    `per 1,000 tiles (${o.tiles} against ${peerTiles}): geohub ${perThousand(o.geohub.run, o.tiles).toFixed(2)} s ` +
    `without start-up, ${perThousand(o.geohub.withStartup, o.tiles).toFixed(2)} s with it, against ` +
    `${perThousand(peer, peerTiles).toFixed(2)} s`
  );
}

/** A small job's own targets (issue 40): the whole command within 3.0 s cold, 1.0 s on a running up. */
export function smallJob(o: OverheadFigures): string {
  if (o.tiles > 50) return '';
  const within = (s: Spread, target: number) =>
    s.median <= target ? `met (${s.median} s)` : `**not met** (${s.median} s)`;
  return `small job: ≤ 3.0 s cold: ${within(o.geohub.withStartup, 3)}${o.geohub.withUp ? `; ≤ 1.0 s on a running up: ${within(o.geohub.withUp, 1)}` : ''}`;
}

/** The raw tool's two rows (its transformers) and the bytes per tile, where it was run. */
function rawRows(o: OverheadFigures, w: number): string[] {
  if (!o.rawDefault || !o.rawExact || !o.bytesPerTile) return [];
  const raw = againstPeer(o, o.rawDefault, o.tiles);
  const exact = againstPeer(o, o.rawExact, o.tiles);
  const b = o.bytesPerTile;
  return [
    `| same tiles, \`xargs -P ${w} gdalwarp\` (GDAL's approximate transformer, geohub's default too) | ${showSpread(o.rawDefault)}: geohub ${showRatio(raw.without)} without start-up, ${showRatio(raw.with)} with it | ≤ 0.6 without: ${judge(raw.without, 0.6)}; ≤ 0.8 with: ${judge(raw.with, 0.8)} |`,
    `| same tiles, \`xargs -P ${w} gdalwarp -et 0\` (the exact transformer) | ${showSpread(o.rawExact)}: geohub ${showRatio(exact.without)} without start-up, ${showRatio(exact.with)} with it | |`,
    `| bytes per tile: per-tile gdalwarp (256×8 strips, DEFLATE) → geohub (one 256×256 block, DEFLATE + predictor) | ${b.before} → ${b.after} (${Math.round((b.after / b.before - 1) * 100)} %) | smaller: ${b.after < b.before ? 'met' : '**not met**'} |`,
  ];
}

export function overheadRows(o: OverheadFigures, w: number, older: string): string[] {
  const tiler = againstPeer(o, o.gdal2tiles, o.gdal2tiles.tiles);
  const onUp = o.geohub.withUp
    ? `; the same command with a \`geohub up\` running (warmed by one run) ${showSpread(o.geohub.withUp)}`
    : '';
  const startup = o.geohub.startup
    ? ` (the in-process hub, run from the TypeScript sources: start until every worker polls ${showSpread(o.geohub.startup)}, stop ${showSpread(o.geohub.stop!)})`
    : '';
  const [rawDefault, rawExact, bytes] = rawRows(o, w);
  const tilerOnly = o.rawDefault
    ? ''
    : ' (against the tiler only: the raw tool would start a `gdalwarp` per sub-tile)';
  return [
    `| **${o.raster}**: ${o.tiles} sub-tiles at zoom ${o.zoom}, \`geohub\` (upload → split → workers → finalize)${tilerOnly}${older} | ${showSpread(o.geohub.run)} without start-up (stack up, workers polling); \`geohub run\` from command to exit ${showSpread(o.geohub.withStartup)}${startup}${onUp}; ${o.geohub.toolRuns} tool processes | ${smallJob(o)} |`,
    ...(rawDefault && rawExact ? [rawDefault, rawExact] : []),
    `| \`gdal2tiles.py --xyz -z ${o.zoom} --processes=${w}\` (PNG, ${o.gdal2tiles.tiles} tiles), with its start-up | ${showSpread(o.gdal2tiles)}: geohub ${showRatio(tiler.without)} without start-up, ${showRatio(tiler.with)} with it${tiler.onUp === undefined ? '' : `, ${showRatio(tiler.onUp)} on a running up`}${tiler.same ? '' : `, ${perThousandNote(o, o.gdal2tiles, o.gdal2tiles.tiles)}`} | ≤ 1.5 without start-up${tiler.same ? '' : ', per 1,000 tiles'}: ${judge(tiler.without, 1.5)}; ≤ 1.0 with it: ${judge(tiler.with, 1.0)} |`,
    ...(bytes ? [bytes] : []),
  ];
}

/** `geohub run` with its start-up against the raw tool at two job sizes of one raster. */
export function crossoverRow(small: OverheadFigures, large: OverheadFigures, w: number): string | undefined {
  const smallRaw = small.rawDefault;
  const largeRaw = large.rawDefault;
  if (!smallRaw || !largeRaw) return undefined;
  const size = (o: OverheadFigures, raw: Spread) => ({
    tiles: o.tiles,
    withStartupSeconds: o.geohub.withStartup.median,
    rawSeconds: raw.median,
  });
  const c = crossover(size(small, smallRaw), size(large, largeRaw), 0.8);
  const from =
    c.fromTiles === undefined
      ? 'never (geohub is not faster per sub-tile)'
      : `from about ${c.fromTiles.toLocaleString('en-US')} sub-tiles`;
  const at = (o: OverheadFigures, raw: Spread) => showRatio(againstPeer(o, raw, o.tiles).with);
  return `| \`geohub run\` with its start-up against \`xargs -P ${w} gdalwarp\`, by job size (a line through the two sizes above) | ${at(small, smallRaw)} at ${small.tiles} sub-tiles, ${at(large, largeRaw)} at ${large.tiles}: ${c.fixedSeconds} s fixed (start-up, stop, copy) + ${c.perThousandSeconds} s per 1,000 sub-tiles, against ${c.rawPerThousandSeconds} s per 1,000 for the raw tool; ≤ 0.8 ${from} | |`;
}
