import middy from '@middy/core';
import { type EnqueueResult, enqueueChunk } from '../lib/enqueue/enqueue-chunk.js';
import { parseEnqueueRequest } from '../lib/enqueue/enqueue-request.js';
import { type FunctionDeps, functionDeps } from './deps.js';

/**
 * Enqueue task, looped by the state machine: event `{manifest, cursor}` → `{cursor, done, sent,
 * total, …}`; the next iteration passes the returned cursor back until `done`.
 */
export const enqueueTask =
  (deps: Pick<FunctionDeps, 'store' | 'queue'>) =>
  async (event: unknown, signal?: AbortSignal): Promise<EnqueueResult> => {
    const request = parseEnqueueRequest(event);
    return enqueueChunk(request.manifest, request.cursor, {
      store: deps.store,
      queue: deps.queue,
      signal,
    });
  };

export const handler = middy<unknown, EnqueueResult>({ timeoutEarlyInMillis: 1_000 }).handler(
  (event, _context, { signal }) => enqueueTask(functionDeps())(event, signal),
);
