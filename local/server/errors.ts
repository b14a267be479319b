import { GeohubError } from '../../lib/errors/geohub-error.js';

/** An answer with a status: the API turns it into `{ error }` with that status. */
export class HttpError extends GeohubError {
  override readonly name = 'HttpError';

  constructor(
    readonly status: number,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
