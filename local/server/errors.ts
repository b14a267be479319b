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

/** A state directory `geohub up` will not keep its secret in (state-dir.ts): one line for the user. */
export class StateDirError extends GeohubError {
  override readonly name = 'StateDirError';

  constructor(dir: string, why: string, options?: { cause?: unknown }) {
    super(
      `${dir} ${why}: refusing to keep geohub up's secret there (point XDG_RUNTIME_DIR at a directory only you can write)`,
      options,
    );
  }
}
