/** The sub-tile states, in the order of a tile's life, with the colour the map and legend use. */
export const TILE_STATES = [
  { state: 'QUEUED', code: 'Q', colour: '#9aa5b1', label: 'queued (no record yet, or queued)' },
  { state: 'CLAIMED', code: 'C', colour: '#f0a202', label: 'claimed (being processed)' },
  { state: 'DONE', code: 'D', colour: '#2b9348', label: 'done' },
  { state: 'FAILED', code: 'F', colour: '#d62828', label: 'failed' },
  { state: 'PARKED', code: 'P', colour: '#7b2cbf', label: 'parked (for a re-drive)' },
  { state: 'CANCELLED', code: 'X', colour: '#343a40', label: 'cancelled' },
];

export const STATE_BY_NAME = new Map(TILE_STATES.map((s) => [s.state, s]));
/** The one-letter codes of GET /api/runs/:id/tile-states. */
export const STATE_BY_CODE = new Map(TILE_STATES.map((s) => [s.code, s]));
