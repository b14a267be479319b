import middy from '@middy/core';
import { chooseEngine } from '../lib/operations/pointcloud-engine.js';
import { type SplitResult, split } from '../lib/split/split.js';
import { parseSplitRequest } from '../lib/split/split-request.js';
import { type FunctionDeps, functionDeps } from './deps.js';

/**
 * Split task (the state machine's Split state): event `{source, operation?, params?,
 * executionArn?}` (extra execution state is ignored) → a manifest reference, never the tiles.
 */
export const splitTask =
  (deps: Pick<FunctionDeps, 'store' | 'ledger' | 'config'>) =>
  async (event: unknown, signal?: AbortSignal): Promise<SplitResult> =>
    split(parseSplitRequest(event), {
      store: deps.store,
      ledger: deps.ledger,
      tilesPerMessage: deps.config.tilesPerMessage,
      pointcloudEngine: await chooseEngine(deps.config.pointcloudEngine),
      signal,
    });

export const handler = middy<unknown, SplitResult>({ timeoutEarlyInMillis: 1_000 }).handler(
  (event, _context, { signal }) => splitTask(functionDeps())(event, signal),
);
