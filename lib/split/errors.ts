import { GeohubError } from '../errors/geohub-error.js';

/** The `<key>.job.json` sidecar (or the parameters given to split) are not valid. */
export class InvalidJobParamsError extends GeohubError {
  override readonly name = 'InvalidJobParamsError';
}

/** The split event is not the shape the state machine sends. */
export class InvalidSplitRequestError extends GeohubError {
  override readonly name = 'InvalidSplitRequestError';
}

/** The requested operation does not apply to this kind of source (raster-xyz on a point cloud, …). */
export class OperationMismatchError extends GeohubError {
  override readonly name = 'OperationMismatchError';
}

/** The source has no coordinate reference system, so it cannot be placed on the map. */
export class MissingCrsError extends GeohubError {
  override readonly name = 'MissingCrsError';
}

/** The raster has no geotransform, so its pixels have no map coordinates. */
export class NotGeoreferencedError extends GeohubError {
  override readonly name = 'NotGeoreferencedError';
}

/** The source covers no tile (outside the Mercator limits, zero area, no points). */
export class EmptyFootprintError extends GeohubError {
  override readonly name = 'EmptyFootprintError';
}

/** The plan has more sub-tiles than the configured cap. */
export class TooManyTilesError extends GeohubError {
  override readonly name = 'TooManyTilesError';
}

/** The source is not in the bucket this deployment reads. */
export class ForeignBucketError extends GeohubError {
  override readonly name = 'ForeignBucketError';
}

/** The run already exists with other parameters, or was stopped while it was being split. */
export class RunConflictError extends GeohubError {
  override readonly name = 'RunConflictError';
}
