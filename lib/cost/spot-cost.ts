/**
 * The spot cost model (docs/architecture.md, "Defaults and models"; after "Handling Spot
 * Interruptions in PDAL Batch Jobs"): the effective cost of one completed tile job on spot
 * capacity, with and without sub-tile checkpoints, at a given interruption rate, from stated
 * assumptions.
 *
 * Interruptions arrive at random: `rate` is the chance that one strikes during any one
 * sub-tile-length window of running (a hazard per window, memoryless).
 * - With checkpoints, an interruption costs the sub-tile in flight only if its remaining
 *   work does not fit in the warning, plus the restart overhead; marked sub-tiles are kept.
 * - Without checkpoints, the job must run all its windows without an interruption; each
 *   interruption throws away the work done so far, plus the restart overhead.
 */
export interface SpotAssumptions {
  /** What one tile job costs on on-demand capacity (the default: $0.100). */
  readonly onDemandPerJob: number;
  /** Spot price as a fraction of on-demand ("roughly a third"). */
  readonly spotRatio: number;
  readonly jobMinutes: number;
  readonly subTileMinutes: number;
  /** The notice before SIGKILL (two minutes on AWS). */
  readonly warningMinutes: number;
  /** Paid per interruption: replacement capacity, container start, source re-read. */
  readonly restartMinutes: number;
}

export const DEFAULT_SPOT_ASSUMPTIONS: SpotAssumptions = {
  onDemandPerJob: 0.1,
  spotRatio: 0.34,
  jobMinutes: 40,
  subTileMinutes: 4,
  warningMinutes: 2,
  restartMinutes: 3,
};

export interface SpotCost {
  readonly rate: number;
  readonly onDemand: number;
  readonly spotCheckpointed: number;
  readonly spotWithoutCheckpoints: number;
  /** Expected interruptions per completed job, with and without checkpoints. */
  readonly interruptions: { readonly checkpointed: number; readonly withoutCheckpoints: number };
}

export function spotCost(rate: number, a: SpotAssumptions = DEFAULT_SPOT_ASSUMPTIONS): SpotCost {
  if (!(rate >= 0 && rate < 1)) throw new RangeError('the interruption rate must be in [0, 1)');
  const w = a.subTileMinutes;
  const n = a.jobMinutes / w;
  const q = 1 - rate;
  const spotPerMinute = (a.onDemandPerJob * a.spotRatio) / a.jobMinutes;

  // Checkpointed: interruptions per window r/q; the in-flight sub-tile is lost only when
  // what remains of it exceeds the warning: E[loss] = (w - W)² / 2w for a uniform strike.
  const lostPerInterruption = Math.max(0, w - a.warningMinutes) ** 2 / (2 * w);
  const perWindow = rate / q;
  const checkpointedMinutes = a.jobMinutes + n * perWindow * (lostPerInterruption + a.restartMinutes);

  // Without checkpoints: n clean windows in a row. Expected windows run until that happens
  // is (1 - qⁿ) / (r qⁿ); the job restarts (1/qⁿ - 1) times.
  const qn = q ** n;
  const windows = rate === 0 ? n : (1 - qn) / (rate * qn);
  const restarts = 1 / qn - 1;
  const uncheckpointedMinutes = windows * w + restarts * a.restartMinutes;

  return {
    rate,
    onDemand: a.onDemandPerJob,
    spotCheckpointed: checkpointedMinutes * spotPerMinute,
    spotWithoutCheckpoints: uncheckpointedMinutes * spotPerMinute,
    interruptions: { checkpointed: n * perWindow, withoutCheckpoints: restarts },
  };
}

/**
 * The interruption rate at which checkpointed spot stops being cheaper than on-demand: where
 * `spotCost(rate).spotCheckpointed` equals the on-demand cost. Each interruption costs the lost
 * part of the in-flight sub-tile plus the restart; solving the model above for the rate gives
 * r / (1 − r) = w (1/spotRatio − 1) / (loss + restart), independent of the job's length.
 * 0 when spot is never cheaper; 1 when an interruption costs nothing.
 */
export function breakEvenRate(a: SpotAssumptions = DEFAULT_SPOT_ASSUMPTIONS): number {
  const w = a.subTileMinutes;
  const perInterruption = Math.max(0, w - a.warningMinutes) ** 2 / (2 * w) + a.restartMinutes;
  if (a.spotRatio >= 1) return 0;
  if (perInterruption <= 0) return 1;
  const k = (w * (1 / a.spotRatio - 1)) / perInterruption;
  return k / (1 + k);
}
