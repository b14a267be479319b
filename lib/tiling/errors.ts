/** A coordinate reference system geohub cannot reproject (unknown EPSG code, unparsable WKT, user-defined keys). */
export class UnsupportedCrsError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UnsupportedCrsError';
  }
}

/** A zoom level, tile or bounding box outside what the XYZ grid can express. */
export class InvalidTileGridError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'InvalidTileGridError';
  }
}

/** The source's bounds cannot be coordinates of its declared CRS (longitudes of 226°, …). */
export class BoundsOutsideCrsError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BoundsOutsideCrsError';
  }
}
