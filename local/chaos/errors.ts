import { GeohubError } from '../../lib/errors/geohub-error.js';

/** The chaos run could not be judged: it did not start, or did not end within its time. */
export class ChaosRunError extends GeohubError {
  override readonly name = 'ChaosRunError';
}
