import proj4 from 'proj4';
import { TILE_STATES, type TileState } from '../../../lib/model/run.js';
import type { TileTask } from '../../../lib/model/tile.js';
import { bboxPolygon } from '../../../lib/tiling/bbox.js';
import { tileBounds } from '../../../lib/tiling/tile-bounds.js';
import type { TileExtent } from './read-manifest-tiles.js';
import type { RunTiles } from './run-tiles.js';

const toLonLat = proj4('EPSG:3857', 'EPSG:4326');
/** 1e-7° is about a centimetre: enough for the map, and it keeps 20,000 features to a few MB. */
const round = (v: number) => Math.round(v * 1e7) / 1e7;

/** [west, south, east, north] in degrees of the EPSG:3857 box, rounded for the page. */
function lonLatBox(minX: number, minY: number, maxX: number, maxY: number): [number, number, number, number] {
  const [w, s] = toLonLat.forward([minX, minY]).map(round) as [number, number];
  const [e, n] = toLonLat.forward([maxX, maxY]).map(round) as [number, number];
  return [w, s, e, n];
}

/** The lon/lat box around every sub-tile of the run (its outline), GeoJSON `bbox` order. */
export function extentBox(extent: TileExtent): [number, number, number, number] {
  const nw = tileBounds(extent.z, extent.minX, extent.minY);
  const se = tileBounds(extent.z, extent.maxX, extent.maxY);
  return lonLatBox(nw.minX, se.minY, se.maxX, nw.maxY);
}

/** A sub-tile's footprint as a GeoJSON polygon in lon/lat (RFC 7946: exterior ring counter-clockwise). */
export function tileFeature(tile: TileTask, state: TileState) {
  const b = tileBounds(tile.z, tile.x, tile.y);
  const [w, s, e, n] = lonLatBox(b.minX, b.minY, b.maxX, b.maxY);
  return {
    type: 'Feature' as const,
    id: tile.id,
    geometry: bboxPolygon([w, s, e, n]),
    properties: { tileId: tile.id, z: tile.z, x: tile.x, y: tile.y, state },
  };
}

/** Sub-tiles counted by state (of those shown). */
export function countStates(states: readonly TileState[]): Record<TileState, number> {
  const counts = Object.fromEntries(TILE_STATES.map((s) => [s, 0])) as Record<TileState, number>;
  for (const s of states) counts[s] += 1;
  return counts;
}

/** What every view of a run's tiles says about them: how many, how many shown, in which states. */
export function runTilesSummary(run: RunTiles) {
  return {
    runId: run.runId,
    total: run.total,
    shown: run.tiles.length,
    truncated: run.truncated,
    note: run.note,
    counts: countStates(run.states),
  };
}

/**
 * GET /api/runs/:id/tiles.geojson: the footprints and states; `bbox` is the whole run's outline
 * (also where the features are cut at the cap), the counts and the note are foreign members.
 */
export function runTilesGeoJson(run: RunTiles) {
  return {
    type: 'FeatureCollection' as const,
    bbox: run.extent ? extentBox(run.extent) : undefined,
    ...runTilesSummary(run),
    // A pyramid: the page browses its lower levels too (docs/architecture.md#pyramids).
    ...(run.levels ? { levels: run.levels } : {}),
    features: run.tiles.map((t, i) => tileFeature(t, run.states[i]!)),
  };
}
