import { isCollectionKey } from '../../../lib/collection/collection-manifest.js';
import { readRunMembers } from '../../../lib/collection/run-members.js';
import type { RunRecord } from '../../../lib/model/run.js';
import type { ObjectStore } from '../../../lib/store/object-store.js';

/** Members named in a run's view: the page lists a few and counts the rest. */
const NAMED = 5;

/** What the page and `geohub status` show of a collection run: its files, counted, a few named. */
export interface RunCollectionView {
  readonly members: number;
  readonly skipped: number;
  /** The first members' file names, in the collection's order. */
  readonly names: readonly string[];
}

/**
 * A collection run's members, read once from `runs/<run>/members.json` (written by the split,
 * never changed after): undefined for a single-file run, or before its split has written it.
 */
export function createRunCollectionReader(store: ObjectStore) {
  const read = new Map<string, RunCollectionView>();
  return async (run: RunRecord): Promise<RunCollectionView | undefined> => {
    if (!isCollectionKey(run.source.key)) return undefined;
    const known = read.get(run.runId);
    if (known) return known;
    const list = await readRunMembers(store, run.runId).catch(() => undefined);
    if (!list) return undefined;
    const view = {
      members: list.members.length,
      skipped: list.skipped.length,
      names: list.members.slice(0, NAMED).map((m) => m.key.slice(m.key.lastIndexOf('/') + 1)),
    };
    read.set(run.runId, view);
    return view;
  };
}
