import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PageHandler } from '../api-server.js';
import type { RunControl } from '../run-control.js';
import { outputsRoute } from './outputs-route.js';
import { createTileRenderer, type TileRendererOptions } from './render/tile-renderer.js';
import { renderRoute } from './render-route.js';
import { pageHeaders } from './security-headers.js';
import { type Asset, pageAssets } from './static-assets.js';
import { storyRoute } from './story-route.js';

async function send(asset: Asset, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const bytes = await readFile(asset.file);
    res.writeHead(200, pageHeaders(asset.contentType, bytes.byteLength));
    res.end(req.method === 'HEAD' ? undefined : bytes);
  } catch (error) {
    res
      .writeHead(500, { 'content-type': 'text/plain; charset=utf-8' })
      .end(`cannot read ${asset.file}: ${(error as Error).message}`);
  }
}

export interface Page {
  /** Registered with the API server: answers the page's paths, returns false for others. */
  readonly handle: PageHandler;
  /** Where rendered tiles are cached (the server's own temp dir, removed by close). */
  readonly cacheDir: string;
  /** Stops rendering (GDAL processes die) and deletes the render cache. */
  close(): Promise<void>;
}

/**
 * The run-control page of `geohub up`: static files from a fixed allow-list (the page, Leaflet,
 * the world outline), the run's tiles drawn as PNGs, its story and its downloads. Other paths
 * fall through to the API server's 404.
 */
export function createPage(
  hub: Pick<RunControl, 'store' | 'ledger'>,
  renderOptions: Partial<Omit<TileRendererOptions, 'store' | 'ledger'>> = {},
): Page {
  const assets = pageAssets();
  const renderer = createTileRenderer({ store: hub.store, ledger: hub.ledger, ...renderOptions });
  const routes = [renderRoute(renderer), outputsRoute(hub.store), storyRoute(hub, renderer)];
  return {
    handle(req, res) {
      const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
      if (routes.some((route) => route(req, res, pathname))) return true;
      if (req.method !== 'GET' && req.method !== 'HEAD') return false;
      const asset = assets.get(pathname);
      if (!asset) return false;
      void send(asset, req, res);
      return true;
    },
    cacheDir: renderer.cache.dir,
    close: () => renderer.close(),
  };
}
