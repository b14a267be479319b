import { GeohubError } from '../errors/geohub-error.js';

/** An operation was given parameters it cannot use (a caller skipped validation, or a newer producer). */
export class InvalidOperationParamsError extends GeohubError {
  override readonly name = 'InvalidOperationParamsError';
}

/** The point extractor answered with something that is not its summary (a bug or a broken install). */
export class ExtractorOutputError extends GeohubError {
  override readonly name = 'ExtractorOutputError';
}

/** A tool wrote a raster that is not the tile's grid (size or georeferencing): never uploaded as the tile. */
export class TileGridMismatchError extends GeohubError {
  override readonly name = 'TileGridMismatchError';
}

/** The source is valid but beyond this worker's engine (a point format it does not read): never retried. */
export class UnreadableSourceError extends GeohubError {
  override readonly name = 'UnreadableSourceError';
}
