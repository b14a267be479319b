import type { Bbox } from '../tiling/bbox.js';
import { copcPointBatches } from './copc-point-batches.js';
import { checkRecordLayout, type PointBatch } from './decode-point-records.js';
import { lasPointBatches } from './las-point-batches.js';
import { lazPointBatches } from './laz-point-batches.js';
import type { OpenedPointCloud } from './open-point-cloud.js';

/**
 * The points of a cloud that may lie in `bbox` (source CRS), in batches: COPC reads only the
 * octree nodes meeting the box; plain LAS and LAZ have no index, so every point is streamed past
 * and the caller keeps those inside.
 */
export function pointBatches(cloud: OpenedPointCloud, bbox: Bbox): AsyncGenerator<PointBatch> {
  checkRecordLayout(cloud.las);
  switch (cloud.header.format) {
    case 'copc':
      return copcPointBatches(cloud, bbox);
    case 'laz':
      return lazPointBatches(cloud);
    case 'las':
      return lasPointBatches(cloud);
  }
}
