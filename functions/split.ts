import middy from '@middy/core';
import { type SplitResult, split } from '../lib/split/split.js';
import { parseSplitRequest } from '../lib/split/split-request.js';
import { functionDeps } from './deps.js';

/**
 * Split Lambda (the state machine's Split task): event `{source, operation?, params?,
 * executionArn?}` (extra execution state is ignored) → a manifest reference, never the tiles.
 */
export const handler = middy<unknown, SplitResult>({ timeoutEarlyInMillis: 1_000 }).handler(
  async (event, _context, { signal }) => {
    const request = parseSplitRequest(event);
    const { store, ledger } = functionDeps();
    return split(request, { store, ledger, signal });
  },
);
