/**
 * The spot cost model (docs/cost.md; after Seed B, "Handling Spot Interruptions in PDAL Batch
 * Jobs"): the effective cost of one completed tile job on spot capacity, with and without
 * sub-tile checkpoints, at a given interruption rate. Its defaults are the inputs the seed
 * states, and nothing else: $0.100 on demand, spot a third of it, a 40-minute job of 4-minute
 * sub-tiles ("loses only the four minutes of work in flight"), a 2-minute warning.
 *
 * Interruptions arrive at random: `rate` is the chance that one strikes during any one
 * sub-tile-length window of running (a hazard per window, memoryless). The window struck is
 * paid and its work lost whole, as the seed counts it:
 * - with checkpoints, an interruption loses the sub-tile in flight (unless it fits in the
 *   warning: then the worker finishes it), plus any restart overhead; marked sub-tiles are kept;
 * - without, the job must run all its windows without an interruption; each interruption
 *   throws away the work done so far, plus any restart overhead.
 */
export interface SpotAssumptions {
  /** What one tile job costs on on-demand capacity (the seed: $0.100). */
  readonly onDemandPerJob: number;
  /** Spot price as a fraction of on-demand (the seed: "roughly a third"). */
  readonly spotRatio: number;
  readonly jobMinutes: number;
  readonly subTileMinutes: number;
  /** The notice before SIGKILL (two minutes on AWS). */
  readonly warningMinutes: number;
  /** Paid per interruption: replacement capacity, container start. The seed states none. */
  readonly restartMinutes: number;
}

export const DEFAULT_SPOT_ASSUMPTIONS: SpotAssumptions = {
  onDemandPerJob: 0.1,
  spotRatio: 1 / 3,
  jobMinutes: 40,
  subTileMinutes: 4,
  warningMinutes: 2,
  restartMinutes: 0,
};

export interface SpotCost {
  readonly rate: number;
  readonly onDemand: number;
  readonly spotCheckpointed: number;
  readonly spotWithoutCheckpoints: number;
  /** Expected interruptions per completed job, with and without checkpoints. */
  readonly interruptions: { readonly checkpointed: number; readonly withoutCheckpoints: number };
}

/** Minutes of the sub-tile in flight an interruption loses when checkpoints are kept. */
export function inFlightLoss(a: SpotAssumptions): number {
  return a.subTileMinutes > a.warningMinutes ? a.subTileMinutes : 0;
}

export function spotCost(rate: number, a: SpotAssumptions = DEFAULT_SPOT_ASSUMPTIONS): SpotCost {
  if (!(rate >= 0 && rate < 1)) throw new RangeError('the interruption rate must be in [0, 1)');
  const w = a.subTileMinutes;
  const n = a.jobMinutes / w;
  const q = 1 - rate;
  const spotPerMinute = (a.onDemandPerJob * a.spotRatio) / a.jobMinutes;

  // Checkpointed: each window is struck r/q times before it completes (geometric).
  const perWindow = rate / q;
  const checkpointedMinutes = a.jobMinutes + n * perWindow * (inFlightLoss(a) + a.restartMinutes);

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
 * `spotCost(rate).spotCheckpointed` equals the on-demand cost. Solving the model above for the
 * rate gives r / (1 − r) = w (1/spotRatio − 1) / (loss + restart), independent of the job's
 * length (the seed's inputs: 2/3). 0 when spot is never cheaper; 1 when an interruption costs
 * nothing.
 */
export function breakEvenRate(a: SpotAssumptions = DEFAULT_SPOT_ASSUMPTIONS): number {
  const perInterruption = inFlightLoss(a) + a.restartMinutes;
  if (a.spotRatio >= 1) return 0;
  if (perInterruption <= 0) return 1;
  const k = (a.subTileMinutes * (1 / a.spotRatio - 1)) / perInterruption;
  return k / (1 + k);
}
