import type { Operation } from '../lib/operations/operation.js';
import { pointcloudDtm } from '../lib/operations/pointcloud-dtm.js';
import { rasterXyz } from '../lib/operations/raster-xyz.js';

/** The operations this worker can run, by the name a run records. */
export const OPERATIONS_BY_NAME: Readonly<Record<string, Operation>> = {
  [rasterXyz.name]: rasterXyz,
  [pointcloudDtm.name]: pointcloudDtm,
};

/**
 * Operations whose tools need the source as a local file (a point cloud is decoded in Node),
 * rather than GDAL's ranged reads through /vsis3/.
 */
export const NEEDS_LOCAL_SOURCE: ReadonlySet<string> = new Set([pointcloudDtm.name]);
