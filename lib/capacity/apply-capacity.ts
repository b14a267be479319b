import { type CapacityMode, nextMode } from '../cost/capacity-policy.js';
import { breakEvenRate, DEFAULT_SPOT_ASSUMPTIONS, type SpotAssumptions } from '../cost/spot-cost.js';
import type { Ledger } from '../ledger/ledger.js';
import type { CapacityTarget } from './capacity-target.js';

export interface ApplyCapacityDeps {
  readonly ledger: Pick<Ledger, 'listRuns'>;
  readonly target: CapacityTarget;
  /** The spot cost model's assumptions (sub-tiles of minutes, a 2-minute warning on AWS). */
  readonly assumptions?: SpotAssumptions;
  readonly hysteresis?: number;
  /** Attempted sub-tiles below which the rate is noise and nothing changes. */
  readonly minAttempts?: number;
}

export interface CapacityOutcome {
  readonly mode: CapacityMode;
  readonly previous: CapacityMode;
  readonly rate: number;
  readonly breakEven: number;
  readonly attempts: number;
}

/**
 * The scheduled capacity check on AWS (functions/capacity.ts): the running runs' interruption rate
 * from the ledger (interrupted ÷ attempted sub-tiles) against the spot cost model's break-even
 * rate; past it the worker service's new capacity goes on-demand, below half of it back to spot
 * (lib/cost/capacity-policy.ts). The mode in force is read from the service itself, so the check
 * keeps no state of its own between invocations.
 */
export async function applyCapacity(deps: ApplyCapacityDeps): Promise<CapacityOutcome> {
  const runs = (await deps.ledger.listRuns(100)).filter((r) => r.status === 'RUNNING');
  const interrupted = runs.reduce((n, r) => n + r.counters.interrupted, 0);
  const attempts = interrupted + runs.reduce((n, r) => n + r.counters.done, 0);
  const rate = attempts === 0 ? 0 : interrupted / attempts;
  const breakEven = breakEvenRate(deps.assumptions ?? DEFAULT_SPOT_ASSUMPTIONS);
  const previous = await deps.target.current();
  const mode =
    attempts >= (deps.minAttempts ?? 20) || previous === 'on-demand'
      ? nextMode(previous, rate, breakEven, deps.hysteresis ?? 0.5)
      : previous;
  if (mode !== previous) await deps.target.set(mode);
  return { mode, previous, rate, breakEven, attempts };
}
