import type { Ledger } from '../lib/ledger/ledger.js';
import type { Logger } from '../lib/log/logger.js';
import { sourceGoneReason, sourcePin } from '../lib/source/source-pin.js';
import { DeadlineExceededError, RunStoppedError, TileDataError, TileRetryableError } from './errors.js';
import type { ProcessTiles } from './process-tiles.js';
import type { SourceAccess } from './source-access.js';

export interface SourceVersionGuardDeps {
  readonly ledger: Ledger;
  readonly sources: SourceAccess;
  readonly log: Logger;
}

/**
 * A metatile that failed may have failed because the run's source version is gone (a pinned read
 * refused other bytes: If-Match or the version id). That is no data failure to retry or count
 * against the breaker: the run cannot finish. Asked once per failure, with one HEAD: the run then
 * drains with one clear reason, and its execution ends FAILED with it (docs/architecture.md).
 */
export function guardSourceVersion(deps: SourceVersionGuardDeps, processTiles: ProcessTiles): ProcessTiles {
  return async (run, metatile, signal, hooks) => {
    try {
      return await processTiles(run, metatile, signal, hooks);
    } catch (error) {
      const failed =
        error instanceof TileDataError ||
        error instanceof TileRetryableError ||
        error instanceof DeadlineExceededError;
      if (!failed || !sourcePin(run.source) || signal.aborted) throw error;
      if (await deps.sources.readable(run, signal).catch(() => true)) throw error;
      const reason = sourceGoneReason(run.source);
      await deps.ledger.updateRun(run.runId, { status: 'DRAINING', reason }, ['RUNNING']);
      deps.log.error(
        { runId: run.runId, tiles: metatile.tiles.length, reason },
        'source version gone: the run stops',
      );
      throw new RunStoppedError(run.runId, 'DRAINING', reason, { cause: error });
    }
  };
}
