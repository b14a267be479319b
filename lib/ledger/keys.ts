/** Single-table keys of the ledger. */
export const runKey = (runId: string) => ({ PK: `RUN#${runId}`, SK: 'META' });
export const tileKey = (runId: string, tileId: string) => ({ PK: `RUN#${runId}`, SK: `TILE#${tileId}` });
export const TILE_PREFIX = 'TILE#';
/** The partition of the sparse `runs` index: every run record carries it, no sub-tile does. */
export const RUN_LIST_KEY = 'RUN';
