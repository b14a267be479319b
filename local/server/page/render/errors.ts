/** The sub-tile has no completion marker yet (or does not exist): nothing to draw. */
export class TileNotRenderableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TileNotRenderableError';
  }
}

/** More renders are waiting than the queue takes: the page asks again on its next poll. */
export class RenderBusyError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RenderBusyError';
  }
}

/** GDAL could not draw the tile (or took too long); the cause is the tool's error. */
export class RenderFailedError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RenderFailedError';
  }
}
