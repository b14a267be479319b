/** A read pinned to one version of an object found that version gone (overwritten or deleted). */
export class ObjectVersionGoneError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ObjectVersionGoneError';
  }
}
