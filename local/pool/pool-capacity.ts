import type { CapacityMode } from '../../lib/cost/capacity-policy.js';

/** The pool's capacity: the mode new workers start in, the workers on each, the time spent on each. */
export interface PoolCapacity {
  readonly mode: CapacityMode;
  readonly spot: number;
  readonly onDemand: number;
  /** Worker-seconds run on each capacity so far (running workers included). */
  readonly seconds: { readonly spot: number; readonly onDemand: number };
  /** On-demand workers stopped (SIGTERM) to come back on spot. */
  readonly recycled: number;
}

/** A running worker as the capacity account sees it. */
export interface CapacitySlot {
  capacity: CapacityMode;
  since: number;
}

/**
 * Which capacity the pool's workers start on, and the worker-seconds spent on each (what the
 * cost estimate of the mix prices: lib/cost/capacity-cost.ts).
 */
export function createCapacityAccount() {
  let mode: CapacityMode = 'spot';
  const seconds = { spot: 0, onDemand: 0 };
  let recycled = 0;
  const key = (s: CapacitySlot) => (s.capacity === 'spot' ? 'spot' : 'onDemand');
  return {
    get mode() {
      return mode;
    },
    /** Returns whether the mode changed. */
    set(next: CapacityMode): boolean {
      if (next === mode) return false;
      mode = next;
      return true;
    },
    /** A worker starts: on the current mode. */
    start(s: CapacitySlot) {
      s.capacity = mode;
      s.since = Date.now();
    },
    /** A worker stopped: its time is counted. */
    stop(s: CapacitySlot) {
      seconds[key(s)] += (Date.now() - s.since) / 1000;
      s.since = Date.now();
    },
    recycled() {
      recycled += 1;
    },
    snapshot(running: readonly CapacitySlot[]): PoolCapacity {
      const now = Date.now();
      const total = { ...seconds };
      for (const s of running) total[key(s)] += (now - s.since) / 1000;
      return {
        mode,
        spot: running.filter((s) => s.capacity === 'spot').length,
        onDemand: running.filter((s) => s.capacity === 'on-demand').length,
        seconds: total,
        recycled,
      };
    },
  };
}
