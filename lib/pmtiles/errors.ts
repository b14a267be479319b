import { GeohubError } from '../errors/geohub-error.js';

/** The tiles do not make an archive: none at all, or one whose object is not what its marker says. */
export class PmtilesInputError extends GeohubError {
  override readonly name = 'PmtilesInputError';
}
