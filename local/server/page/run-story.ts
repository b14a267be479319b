import type { Ledger } from '../../../lib/ledger/ledger.js';
import type { RunRecord } from '../../../lib/model/run.js';

/** Ledger records (metatiles) read for a story: a Query per run, bounded for very large runs. */
const STORY_SCAN = 50_000;
/** Points of the done-over-time curve the page draws. */
const CURVE_POINTS = 120;

export interface RunStory {
  readonly runId: string;
  /** [milliseconds since the run started, sub-tiles done by then], ascending. */
  readonly progress: readonly (readonly [number, number])[];
  /** Sub-tiles whose metatile took more than one attempt, and the metatile attempts beyond the first. */
  readonly redone: { readonly tiles: number; readonly attempts: number };
  /** Attempts that ended in an interruption (spot reclaim, worker stop), per the metatiles' records. */
  readonly interruptions: number;
  readonly scanned: number;
  /** The run has more records than were read: the figures cover the first STORY_SCAN. */
  readonly partial: boolean;
}

/**
 * The cumulative count of sub-tiles done over time, from [completion time, sub-tiles marked then]
 * (a metatile marks its tiles together), downsampled to at most CURVE_POINTS steps.
 */
export function doneCurve(
  marks: readonly (readonly [number, number])[],
  startedAt: number,
): [number, number][] {
  const sorted = [...marks].sort((a, b) => a[0] - b[0]);
  const step = Math.max(1, Math.ceil(sorted.length / CURVE_POINTS));
  const curve: [number, number][] = [[0, 0]];
  let done = 0;
  for (const [i, [time, tiles]] of sorted.entries()) {
    done += tiles;
    if ((i + 1) % step === 0 || i === sorted.length - 1) curve.push([time - startedAt, done]);
  }
  return curve;
}

/**
 * A run's story from its metatiles' records: when each was marked done (the curve), which were
 * redone and how often they were interrupted.
 */
export async function runStory(ledger: Ledger, run: RunRecord): Promise<RunStory> {
  const marks: [number, number][] = [];
  let redoneTiles = 0;
  let redoneAttempts = 0;
  let interruptions = 0;
  let scanned = 0;
  let partial = false;
  for await (const m of ledger.listMetatiles(run.runId)) {
    if (scanned >= STORY_SCAN) {
      partial = true;
      break;
    }
    scanned += 1;
    if (m.state === 'DONE' && m.updatedAt) marks.push([Date.parse(m.updatedAt), m.tiles.length]);
    if (m.attempts > 1) {
      redoneTiles += m.tiles.length;
      redoneAttempts += m.attempts - 1;
    }
    interruptions += m.interruptions;
  }
  return {
    runId: run.runId,
    progress: doneCurve(marks, Date.parse(run.createdAt)),
    redone: { tiles: redoneTiles, attempts: redoneAttempts },
    interruptions,
    scanned,
    partial,
  };
}
