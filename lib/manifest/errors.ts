import { GeohubError } from '../errors/geohub-error.js';

/** A manifest part does not hold what its reference says (bad line, wrong size, wrong count). */
export class ManifestCorruptError extends GeohubError {
  override readonly name = 'ManifestCorruptError';
}

/** The run has no manifest (it was never split, or its index was removed). */
export class ManifestMissingError extends GeohubError {
  override readonly name = 'ManifestMissingError';
}
