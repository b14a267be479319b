import type { TileState } from '../../../lib/model/run.js';
import type { RunTiles } from './run-tiles.js';
import { runTilesSummary } from './tile-geojson.js';

/** One letter per state: the page polls every second, and 20,000 states fit in 20 KB this way. */
export const STATE_CODES: Readonly<Record<TileState, string>> = {
  QUEUED: 'Q',
  CLAIMED: 'C',
  DONE: 'D',
  FAILED: 'F',
  PARKED: 'P',
  CANCELLED: 'X',
};

/**
 * GET /api/runs/:id/tile-states: the states of the features of tiles.geojson, in the same order,
 * as a string of STATE_CODES letters; the page fetches the geometry once and these on each poll.
 */
export function runTileStates(run: RunTiles) {
  return {
    ...runTilesSummary(run),
    legend: Object.fromEntries(Object.entries(STATE_CODES).map(([state, code]) => [code, state])),
    states: run.states.map((s) => STATE_CODES[s]).join(''),
  };
}
