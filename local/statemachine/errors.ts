import { GeohubError } from '../../lib/errors/geohub-error.js';

/** The local executions hold no execution of that ARN (Step Functions' ExecutionDoesNotExist). */
export class ExecutionDoesNotExistError extends GeohubError {
  override readonly name = 'ExecutionDoesNotExistError';
}

/** An invoke after the hub stopped its Lambda pool: refused, never queued behind a dead pool. */
export class LambdaPoolStoppedError extends GeohubError {
  override readonly name = 'LambdaPoolStoppedError';
}
