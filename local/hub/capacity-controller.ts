import { setTimeout as sleep } from 'node:timers/promises';
import { type CapacityCost, capacityCost } from '../../lib/cost/capacity-cost.js';
import {
  type CapacityDecision,
  type CapacityMode,
  type CapacityPolicyOptions,
  type CapacitySwitch,
  createCapacityPolicy,
} from '../../lib/cost/capacity-policy.js';
import { DEFAULT_ESTIMATE } from '../../lib/cost/run-estimate.js';
import { DEFAULT_SPOT_ASSUMPTIONS } from '../../lib/cost/spot-cost.js';
import type { Ledger } from '../../lib/ledger/ledger.js';
import type { Logger } from '../../lib/log/logger.js';
import type { WorkerPool } from '../pool/worker-pool.js';

export interface CapacitySettings extends CapacityPolicyOptions {
  /** How often the runs' counters are read (default 5 s: one Query of the runs index each time). */
  readonly everyMs?: number;
}

/** What `geohub status` and the run view show of the capacity. */
export interface CapacityView {
  readonly mode: CapacityMode;
  readonly workers: { readonly spot: number; readonly onDemand: number };
  readonly rate: number;
  readonly breakEven: number;
  readonly attempts: number;
  readonly subTileSeconds: number;
  readonly switches: readonly (Omit<CapacitySwitch, 'at'> & { readonly at: string })[];
  /** The workers' time so far priced by the capacity it ran on. */
  readonly cost: CapacityCost;
}

/**
 * The local stand-in for the capacity choice on AWS: reads the running runs' counters from the
 * ledger, asks the fallback policy (lib/cost/capacity-policy.ts) and sets the pool's capacity.
 * Locally an interruption costs a worker restart (about a second here), not minutes: the
 * assumptions say so, the rest is the spot cost model (docs/architecture.md, "Defaults and models").
 */
export function startCapacityController(
  deps: { ledger: Ledger; pool: WorkerPool; log?: Logger },
  settings: CapacitySettings = {},
) {
  const policy = createCapacityPolicy({
    windowMs: 30_000,
    minAttempts: 8,
    ...settings,
    assumptions: settings.assumptions ?? {
      ...DEFAULT_SPOT_ASSUMPTIONS,
      warningMinutes: 2,
      restartMinutes: 1.5 / 60,
    },
  });
  const durations: number[] = [];
  const claimed = new Map<string, number>();
  let last: CapacityDecision = { mode: 'spot', rate: 0, breakEven: 1, attempts: 0 };
  const switches: CapacityView['switches'][number][] = [];
  const subTileSeconds = () =>
    durations.length === 0
      ? DEFAULT_ESTIMATE.secondsPerTile['raster-xyz']!
      : durations.reduce((a, b) => a + b, 0) / durations.length / 1000;

  const tick = async () => {
    const runs = (await deps.ledger.listRuns(100)).filter((r) => r.status === 'RUNNING');
    const done = runs.reduce((n, r) => n + r.counters.done, 0);
    const interrupted = runs.reduce((n, r) => n + r.counters.interrupted, 0);
    last = policy.update({ at: Date.now(), done, interrupted, subTileSeconds: subTileSeconds() });
    if (last.switched) {
      switches.push({ ...last.switched, at: new Date(last.switched.at).toISOString() });
      deps.log?.warn(
        { rate: last.rate, breakEven: last.breakEven, to: last.mode },
        `interruption rate ${(last.rate * 100).toFixed(0)} % vs break-even ${(last.breakEven * 100).toFixed(0)} %: new workers on ${last.mode}`,
      );
    }
    deps.pool.setCapacity(last.mode);
  };
  // Stopping cuts the wait between checks short: a stop must not wait out the check interval.
  const stopping = new AbortController();
  const loop = (async () => {
    while (!stopping.signal.aborted) {
      await tick().catch((error: unknown) => deps.log?.warn({ err: error }, 'capacity check failed'));
      await sleep(settings.everyMs ?? 5_000, undefined, { signal: stopping.signal }).catch(() => {});
    }
  })();

  return {
    /**
     * A worker's log line: a metatile's duration over its sub-tiles is the cost model's sub-tile
     * length (the claim line says how many sub-tiles the attempt had).
     */
    observe(parsed: Record<string, unknown> | undefined) {
      const id = String(parsed?.metatileId);
      if (String(parsed?.msg).startsWith('metatile claimed') && typeof parsed?.remaining === 'number') {
        if (claimed.size > 1_000) claimed.clear();
        claimed.set(id, parsed.remaining);
        return;
      }
      if (parsed?.msg !== 'metatile done' || typeof parsed.durationMs !== 'number') return;
      durations.push(parsed.durationMs / Math.max(1, claimed.get(id) ?? 1));
      claimed.delete(id);
      if (durations.length > 200) durations.shift();
    },
    view(): CapacityView {
      const c = deps.pool.capacity();
      return {
        mode: c.mode,
        workers: { spot: c.spot, onDemand: c.onDemand },
        rate: last.rate,
        breakEven: last.breakEven,
        attempts: last.attempts,
        subTileSeconds: subTileSeconds(),
        switches: [...switches],
        cost: capacityCost(c.seconds),
      };
    },
    async stop() {
      stopping.abort();
      await loop;
    },
  };
}

export type CapacityController = ReturnType<typeof startCapacityController>;
