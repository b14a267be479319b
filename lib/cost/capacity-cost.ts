import { DEFAULT_ESTIMATE } from './run-estimate.js';

/** Worker task prices per hour (1 vCPU + 2 GB, us-east-1 list prices, late 2026). */
export interface CapacityPrices {
  readonly spotPerHour: number;
  readonly onDemandPerHour: number;
}

export const FARGATE_PRICES: CapacityPrices = {
  spotPerHour: DEFAULT_ESTIMATE.workerSpotPerHour,
  // Fargate on-demand: $0.04048 per vCPU-hour + $0.004445 per GB-hour.
  onDemandPerHour: 0.04048 + 2 * 0.004445,
};

export interface CapacityCost {
  readonly spotSeconds: number;
  readonly onDemandSeconds: number;
  /** Share of the worker time that ran on on-demand capacity. */
  readonly onDemandShare: number;
  readonly spot: number;
  readonly onDemand: number;
  readonly total: number;
  /** The same worker time all on spot, and all on-demand: the mix lies between. */
  readonly allSpot: number;
  readonly allOnDemand: number;
}

/** What the worker time cost, split by the capacity it ran on. */
export function capacityCost(
  seconds: { readonly spot: number; readonly onDemand: number },
  prices: CapacityPrices = FARGATE_PRICES,
): CapacityCost {
  const hours = (s: number) => s / 3600;
  const spot = hours(seconds.spot) * prices.spotPerHour;
  const onDemand = hours(seconds.onDemand) * prices.onDemandPerHour;
  const all = seconds.spot + seconds.onDemand;
  return {
    spotSeconds: seconds.spot,
    onDemandSeconds: seconds.onDemand,
    onDemandShare: all === 0 ? 0 : seconds.onDemand / all,
    spot,
    onDemand,
    total: spot + onDemand,
    allSpot: hours(all) * prices.spotPerHour,
    allOnDemand: hours(all) * prices.onDemandPerHour,
  };
}
