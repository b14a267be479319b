import { GeohubError } from '../errors/geohub-error.js';

/** A queue operation that cannot be done as asked (not an AWS failure: those keep their own names). */
export class QueueError extends GeohubError {
  override readonly name = 'QueueError';
}
