import { GeohubError } from '../errors/geohub-error.js';

/** StartExecution stayed refused (throttled, or too many executions running) for every attempt. */
export class ExecutionStartThrottledError extends GeohubError {
  override readonly name = 'ExecutionStartThrottledError';
}
