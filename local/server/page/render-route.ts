import type { IncomingMessage, ServerResponse } from 'node:http';
import { RenderBusyError, TileNotRenderableError } from './render/errors.js';
import type { TileRenderer } from './render/tile-renderer.js';

/** GET /api/runs/:id/render/:z/:x/:y.png */
const RENDER_PATH = /^\/api\/runs\/([0-9a-z-]{8,64})\/render\/(\d{1,2})\/(\d{1,8})\/(\d{1,8})\.png$/;

function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
) {
  res
    .writeHead(status, { 'content-type': 'application/json', ...headers })
    .end(JSON.stringify({ error: message }));
}

/**
 * A run's tile drawn as a PNG (render/tile-renderer.ts): 404 until its marker exists, 503 when
 * the render queue is full (the page asks again later). Answers only its own path.
 */
export function renderRoute(renderer: TileRenderer) {
  return (req: IncomingMessage, res: ServerResponse, pathname: string): boolean => {
    const m = RENDER_PATH.exec(pathname);
    if (!m || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
    const [z, x, y] = [Number(m[2]), Number(m[3]), Number(m[4])];
    if (z > 24 || x >= 2 ** z || y >= 2 ** z) {
      sendError(res, 400, `${z}/${x}/${y} is not an XYZ tile`);
      return true;
    }
    renderer
      .render(m[1]!, { z, x, y })
      .then((png) => {
        res.writeHead(200, {
          'content-type': 'image/png',
          'content-length': png.byteLength,
          'x-content-type-options': 'nosniff',
          // The page asks again when a tile's run changes; a stale tile must not stick.
          'cache-control': 'no-cache',
        });
        res.end(req.method === 'HEAD' ? undefined : png);
      })
      .catch((error: unknown) => {
        if (error instanceof TileNotRenderableError) sendError(res, 404, error.message);
        else if (error instanceof RenderBusyError) sendError(res, 503, error.message, { 'retry-after': '1' });
        else sendError(res, 500, (error as Error).message);
      });
    return true;
  };
}
