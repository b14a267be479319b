import { GeohubError } from '../errors/geohub-error.js';

/** A read pinned to one version of an object found that version gone (overwritten or deleted). */
export class ObjectVersionGoneError extends GeohubError {
  override readonly name = 'ObjectVersionGoneError';
}

/**
 * S3 refused a HEAD with 403. A HEAD answer has no body, so the SDK can name neither the error
 * nor the reason ("Unknown: UnknownError"): this says what was refused, so the run's reason does.
 */
export class ObjectAccessDeniedError extends GeohubError {
  override readonly name = 'ObjectAccessDeniedError';
}

/** An object could not be read as asked: not in a local store, or S3 answered without a body. */
export class ObjectReadError extends GeohubError {
  override readonly name = 'ObjectReadError';
}
