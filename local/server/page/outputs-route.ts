import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { OUTPUT_FILES } from '../../../lib/coordination/run-outputs.js';
import type { ObjectStore } from '../../../lib/store/object-store.js';
import { findOutput } from './run-outputs.js';

/** GET /api/runs/:id/outputs/:name, for the names of OUTPUT_FILES only (lib/coordination/run-outputs.ts). */
const OUTPUT_PATH = /^\/api\/runs\/([0-9a-z-]{8,64})\/outputs\/([a-z]+\.(?:vrt|json))$/;

/**
 * A run's mosaic VRT, STAC collection and summary, streamed from the store as
 * downloads. The name is looked up in a fixed list, never joined into a key as given.
 */
export function outputsRoute(store: ObjectStore) {
  return (req: IncomingMessage, res: ServerResponse, pathname: string): boolean => {
    const m = OUTPUT_PATH.exec(pathname);
    if (!m || req.method !== 'GET') return false;
    const [runId, name] = [m[1]!, m[2]!];
    const type = OUTPUT_FILES[name]?.type;
    if (!type) return false;
    void (async () => {
      const found = await findOutput(store, runId, name);
      if (!found) {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: `no ${name} for ${runId}` }));
        return;
      }
      const body = await store.getStream(found.key);
      res.writeHead(200, {
        'content-type': type,
        'content-length': found.bytes,
        'content-disposition': `attachment; filename="${runId}-${name}"`,
        'x-content-type-options': 'nosniff',
      });
      await pipeline(body, res);
    })().catch((error: unknown) => {
      if (res.headersSent) res.destroy(error as Error);
      else
        res
          .writeHead(500, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: (error as Error).message }));
    });
    return true;
  };
}
