/** The `<key>.job.json` sidecar (or the parameters given to split) are not valid. */
export class InvalidJobParamsError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'InvalidJobParamsError';
  }
}

/** The split event is not the shape the state machine sends. */
export class InvalidSplitRequestError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'InvalidSplitRequestError';
  }
}

/** The requested operation does not apply to this kind of source (raster-xyz on a point cloud, …). */
export class OperationMismatchError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OperationMismatchError';
  }
}

/** The source has no coordinate reference system, so it cannot be placed on the map. */
export class MissingCrsError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MissingCrsError';
  }
}

/** The raster has no geotransform, so its pixels have no map coordinates. */
export class NotGeoreferencedError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'NotGeoreferencedError';
  }
}

/** The source covers no tile (outside the Mercator limits, zero area, no points). */
export class EmptyFootprintError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EmptyFootprintError';
  }
}

/** The plan has more sub-tiles than the configured cap. */
export class TooManyTilesError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TooManyTilesError';
  }
}

/** The source is not in the bucket this deployment reads. */
export class ForeignBucketError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ForeignBucketError';
  }
}

/** The run already exists with other parameters, or was stopped while it was being split. */
export class RunConflictError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RunConflictError';
  }
}
