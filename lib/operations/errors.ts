/** An operation was given parameters it cannot use (a caller skipped validation, or a newer producer). */
export class InvalidOperationParamsError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'InvalidOperationParamsError';
  }
}

/** The point extractor answered with something that is not its summary (a bug or a broken install). */
export class ExtractorOutputError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ExtractorOutputError';
  }
}

/** A tool wrote a raster that is not the tile's grid (size or georeferencing): never uploaded as the tile. */
export class TileGridMismatchError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TileGridMismatchError';
  }
}
