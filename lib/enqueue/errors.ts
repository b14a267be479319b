import { GeohubError } from '../errors/geohub-error.js';

/** Some messages could not be sent even after the queue adapter's retries. */
export class EnqueueSendError extends GeohubError {
  override readonly name = 'EnqueueSendError';
}

/** The enqueue event is not the shape the state machine sends (bad manifest reference or cursor). */
export class InvalidEnqueueRequestError extends GeohubError {
  override readonly name = 'InvalidEnqueueRequestError';
}
