import { GeohubError } from '../../../../lib/errors/geohub-error.js';

/** The sub-tile has no completion marker yet (or does not exist): nothing to draw. */
export class TileNotRenderableError extends GeohubError {
  override readonly name = 'TileNotRenderableError';
}

/** More renders are waiting than the queue takes: the page asks again on its next poll. */
export class RenderBusyError extends GeohubError {
  override readonly name = 'RenderBusyError';
}

/** GDAL could not draw the tile (or took too long); the cause is the tool's error. */
export class RenderFailedError extends GeohubError {
  override readonly name = 'RenderFailedError';
}
