import { GeohubError } from '../errors/geohub-error.js';

/** A coordinate reference system geohub cannot reproject (unknown EPSG code, unparsable WKT, user-defined keys). */
export class UnsupportedCrsError extends GeohubError {
  override readonly name = 'UnsupportedCrsError';
}

/** A zoom level, tile or bounding box outside what the XYZ grid can express. */
export class InvalidTileGridError extends GeohubError {
  override readonly name = 'InvalidTileGridError';
}

/** The source's bounds cannot be coordinates of its declared CRS (longitudes of 226°, …). */
export class BoundsOutsideCrsError extends GeohubError {
  override readonly name = 'BoundsOutsideCrsError';
}
