import type { Ledger } from '../../../lib/ledger/ledger.js';
import type { RunRecord } from '../../../lib/model/run.js';

/** Ledger records read for a story: a Query per run, bounded for very large runs. */
const STORY_SCAN = 50_000;
/** Points of the done-over-time curve the page draws. */
const CURVE_POINTS = 120;

export interface RunStory {
  readonly runId: string;
  /** [milliseconds since the run started, sub-tiles done by then], ascending. */
  readonly progress: readonly (readonly [number, number])[];
  /** Sub-tiles that took more than one attempt, and the attempts beyond the first. */
  readonly redone: { readonly tiles: number; readonly attempts: number };
  /** Attempts that ended in an interruption (spot reclaim, worker stop), per the sub-tiles' records. */
  readonly interruptions: number;
  readonly scanned: number;
  /** The run has more records than were read: the figures cover the first STORY_SCAN. */
  readonly partial: boolean;
}

/** Downsamples a sorted list of completion times to at most CURVE_POINTS steps of the cumulative count. */
export function doneCurve(times: readonly number[], startedAt: number): [number, number][] {
  const sorted = [...times].sort((a, b) => a - b);
  const step = Math.max(1, Math.ceil(sorted.length / CURVE_POINTS));
  const curve: [number, number][] = [[0, 0]];
  for (let i = step - 1; i < sorted.length; i += step) curve.push([sorted[i]! - startedAt, i + 1]);
  const last = sorted.length;
  if (last > 0 && curve.at(-1)![1] !== last) curve.push([sorted[last - 1]! - startedAt, last]);
  return curve;
}

/**
 * A run's story from its sub-tiles' records: when each was marked done (the curve), which were
 * redone and how often they were interrupted.
 */
export async function runStory(ledger: Ledger, run: RunRecord): Promise<RunStory> {
  const times: number[] = [];
  let redoneTiles = 0;
  let redoneAttempts = 0;
  let interruptions = 0;
  let scanned = 0;
  let partial = false;
  for await (const t of ledger.listTiles(run.runId)) {
    if (scanned >= STORY_SCAN) {
      partial = true;
      break;
    }
    scanned += 1;
    if (t.state === 'DONE' && t.updatedAt) times.push(Date.parse(t.updatedAt));
    if (t.attempts > 1) {
      redoneTiles += 1;
      redoneAttempts += t.attempts - 1;
    }
    interruptions += t.interruptions;
  }
  return {
    runId: run.runId,
    progress: doneCurve(times, Date.parse(run.createdAt)),
    redone: { tiles: redoneTiles, attempts: redoneAttempts },
    interruptions,
    scanned,
    partial,
  };
}
