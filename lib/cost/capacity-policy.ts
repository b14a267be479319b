import { breakEvenRate, DEFAULT_SPOT_ASSUMPTIONS, type SpotAssumptions } from './spot-cost.js';

export type CapacityMode = 'spot' | 'on-demand';

/** What the runs' ledgers say at one moment: sub-tiles done and attempts interrupted, summed. */
export interface CapacitySample {
  readonly at: number;
  readonly done: number;
  readonly interrupted: number;
  /** Mean seconds of one sub-tile attempt, as observed (the cost model's sub-tile length). */
  readonly subTileSeconds: number;
}

export interface CapacityDecision {
  readonly mode: CapacityMode;
  /** Interruptions per sub-tile attempt over the window (the cost model's per-window rate). */
  readonly rate: number;
  readonly breakEven: number;
  readonly attempts: number;
  /** Set when this sample changed the mode. */
  readonly switched?: CapacitySwitch;
}

/** One change of mode, with the rate that caused it. */
export interface CapacitySwitch {
  readonly from: CapacityMode;
  readonly to: CapacityMode;
  readonly at: number;
  readonly rate: number;
  readonly breakEven: number;
}

export interface CapacityPolicyOptions {
  /** The cost model's other assumptions; the sub-tile length is the observed one. */
  readonly assumptions?: Omit<SpotAssumptions, 'subTileMinutes'>;
  /** How far back the observed rate looks. */
  readonly windowMs?: number;
  /** Back to spot only below this share of the break-even rate, so the mode does not flap. */
  readonly hysteresis?: number;
  /** Attempts in the window below which the rate is noise and the mode stays. */
  readonly minAttempts?: number;
}

/**
 * The fallback's rule: on-demand above the break-even rate; back to spot only below `hysteresis`
 * times it, so that the mode does not flap around the break-even rate.
 */
export function nextMode(
  mode: CapacityMode,
  rate: number,
  breakEven: number,
  hysteresis: number,
): CapacityMode {
  if (mode === 'spot' && rate > breakEven) return 'on-demand';
  if (mode === 'on-demand' && rate < breakEven * hysteresis) return 'spot';
  return mode;
}

/**
 * Spot → on-demand fallback: new worker capacity goes on-demand while the interruption rate the
 * runs observe passes the break-even rate of the spot cost model (`geohub cost`), where
 * checkpointed spot stops being cheaper; it goes back to spot when the rate falls below a share
 * of it. The rate is measured over a sliding window of the ledger's counters, so it falls again
 * once interruptions stop (docs/architecture.md).
 */
export function createCapacityPolicy(options: CapacityPolicyOptions = {}) {
  const assumptions = options.assumptions ?? DEFAULT_SPOT_ASSUMPTIONS;
  const windowMs = options.windowMs ?? 5 * 60_000;
  const hysteresis = options.hysteresis ?? 0.5;
  const minAttempts = options.minAttempts ?? 10;
  const samples: CapacitySample[] = [];
  let mode: CapacityMode = 'spot';

  return {
    get mode() {
      return mode;
    },
    update(sample: CapacitySample): CapacityDecision {
      samples.push(sample);
      // Samples older than ten windows are of no use: a window stretches that far at most.
      while (samples.length > 2 && samples[1]!.at <= sample.at - 10 * windowMs) samples.shift();
      const since = (b: CapacitySample) => {
        const interrupted = Math.max(0, sample.interrupted - b.interrupted);
        return { interrupted, attempts: interrupted + Math.max(0, sample.done - b.done) };
      };
      // The window: the last `windowMs`, stretched back until it holds `minAttempts` attempts
      // (few attempts are noise: when work is slow, the rate is measured over longer).
      let base = samples[0]!;
      for (let i = samples.length - 1; i >= 0; i -= 1) {
        base = samples[i]!;
        if (base.at <= sample.at - windowMs && since(base).attempts >= minAttempts) break;
      }
      const { interrupted, attempts } = since(base);
      const rate = attempts === 0 ? 0 : interrupted / attempts;
      const breakEven = breakEvenRate({ ...assumptions, subTileMinutes: sample.subTileSeconds / 60 });
      const from = mode;
      if (attempts >= minAttempts) {
        mode = nextMode(mode, rate, breakEven, hysteresis);
      } else if (mode === 'on-demand' && interrupted === 0 && sample.at - base.at >= windowMs) {
        // A quiet window with too little work to measure: nothing argues for on-demand any more.
        mode = 'spot';
      }
      return {
        mode,
        rate,
        breakEven,
        attempts,
        ...(mode !== from ? { switched: { from, to: mode, at: sample.at, rate, breakEven } } : {}),
      };
    },
  };
}
