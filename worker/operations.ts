import type { Operation } from '../lib/operations/operation.js';
import { rasterXyz } from '../lib/operations/raster-xyz.js';

/** The operations this worker can run, by the name a run records. */
export const OPERATIONS: Readonly<Record<string, Operation>> = {
  [rasterXyz.name]: rasterXyz,
};
