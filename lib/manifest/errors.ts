/** A manifest part does not hold what its reference says (bad line, wrong size, wrong count). */
export class ManifestCorruptError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ManifestCorruptError';
  }
}
