import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LocalHub } from '../hub/local-hub.js';

/** The run-control page (served by `geohub up`); a placeholder until the page lands. */
export function servePage(_hub: LocalHub) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== 'GET' || (req.url !== '/' && req.url !== '/index.html')) return false;
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        '<!doctype html><title>geohub</title><p>geohub up is running. The API is under <code>/api/</code>.</p>',
      );
    return true;
  };
}
