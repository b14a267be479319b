import type { CapacityMode } from '../cost/capacity-policy.js';

/** Where new worker capacity comes from (on AWS: the worker service's capacity provider strategy). */
export interface CapacityTarget {
  current(): Promise<CapacityMode>;
  /** New workers on `mode` from now on; running ones are replaced by a rolling deployment. */
  set(mode: CapacityMode): Promise<void>;
}
