import { DEFAULT_SPOT_ASSUMPTIONS, inFlightLoss, type SpotAssumptions } from './spot-cost.js';

/** Minutes of work one interruption throws away, with and without checkpoints. */
export interface InterruptionLoss {
  readonly atMinute: number;
  readonly checkpointed: number;
  readonly withoutCheckpoints: number;
}

/**
 * Seed B's worked example: a 40-minute job interrupted at minute 28 loses 28 minutes without
 * checkpoints (all the work so far) and about 4 with them (the sub-tile in flight, counted whole
 * as the cost model counts it, unless it fits in the warning).
 */
export function interruptionLoss(
  atMinute: number,
  a: SpotAssumptions = DEFAULT_SPOT_ASSUMPTIONS,
): InterruptionLoss {
  if (!(atMinute >= 0 && atMinute < a.jobMinutes))
    throw new RangeError('the interruption must fall inside the job');
  return { atMinute, checkpointed: inFlightLoss(a), withoutCheckpoints: atMinute };
}
