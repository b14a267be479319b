import { GeohubError } from '../errors/geohub-error.js';

/** The worker service whose capacity is to be set cannot be found or read. */
export class CapacityTargetError extends GeohubError {
  override readonly name = 'CapacityTargetError';
}
