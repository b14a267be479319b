import { GeohubError } from '../errors/geohub-error.js';

/** A read pinned to one version of an object found that version gone (overwritten or deleted). */
export class ObjectVersionGoneError extends GeohubError {
  override readonly name = 'ObjectVersionGoneError';
}
