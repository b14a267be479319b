import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LocalHub } from '../hub/local-hub.js';
import type { PageHandler } from './api-server.js';
import { pageHeaders } from './page/security-headers.js';
import { type Asset, pageAssets } from './page/static-assets.js';

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

/**
 * The run-control page of `geohub up`: static files from a fixed allow-list (the page itself and
 * Leaflet from node_modules); the page then talks to the JSON API only. Other paths fall through
 * to the API server's 404.
 */
export function servePage(_hub: LocalHub): PageHandler {
  const assets = pageAssets();
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const asset = assets.get(new URL(req.url ?? '/', 'http://localhost').pathname);
    if (!asset) return false;
    void send(asset, req, res);
    return true;
  };
}
