import { GeohubError } from '../../lib/errors/geohub-error.js';

/** What Step Functions answers for an ARN it does not hold. */
export class ExecutionDoesNotExistError extends GeohubError {
  override readonly name = 'ExecutionDoesNotExist';
}

/** An invoke after the hub stopped its Lambda pool: refused, never queued behind a dead pool. */
export class LambdaPoolStoppedError extends GeohubError {
  override readonly name = 'LambdaPoolStoppedError';
}
