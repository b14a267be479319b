import { GeohubError } from '../errors/geohub-error.js';

/** The run's circuit breaker is open: its work was drained and parked for a re-drive. */
export class BreakerOpenError extends GeohubError {
  override readonly name = 'BreakerOpenError';
}

/** The run ended with sub-tiles failed, parked or dead-lettered: an exact account is in the cause. */
export class IncompleteRunError extends GeohubError {
  override readonly name = 'IncompleteRunError';
}

/** The run was cancelled (execution stopped, operator cancel). */
export class RunCancelledError extends GeohubError {
  override readonly name = 'RunCancelledError';
}

/** Work taken back for re-sending could not all be sent to the queue (the coordinator retries). */
export class RequeueFailedError extends GeohubError {
  override readonly name = 'RequeueFailedError';
}

/** A run's tiles cannot make one mosaic (a marker's tile is not a raster, or another zoom). */
export class MosaicInputError extends GeohubError {
  override readonly name = 'MosaicInputError';
}
