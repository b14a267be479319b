import middy from '@middy/core';
import { type EnqueueResult, enqueueChunk } from '../lib/enqueue/enqueue-chunk.js';
import { parseEnqueueRequest } from '../lib/enqueue/enqueue-request.js';
import { functionDeps } from './deps.js';

/**
 * Enqueue Lambda, looped by the state machine: event `{manifest, cursor}` → `{cursor, done, sent,
 * total, …}`; the next iteration passes the returned cursor back until `done`.
 */
export const handler = middy<unknown, EnqueueResult>({ timeoutEarlyInMillis: 1_000 }).handler(
  async (event, _context, { signal }) => {
    const request = parseEnqueueRequest(event);
    const { store, queue } = functionDeps();
    return enqueueChunk(request.manifest, request.cursor, { store, queue, signal });
  },
);
