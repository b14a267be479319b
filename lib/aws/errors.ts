import { GeohubError } from '../errors/geohub-error.js';

/** A Lambda function the operator invoked threw: its error type and message, as Lambda returned them. */
export class FunctionFailedError extends GeohubError {
  override readonly name = 'FunctionFailedError';
}
