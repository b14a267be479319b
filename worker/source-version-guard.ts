import { memberSource } from '../lib/collection/run-members.js';
import type { Ledger } from '../lib/ledger/ledger.js';
import type { Logger } from '../lib/log/logger.js';
import type { RunHead } from '../lib/model/run.js';
import { sourceGoneReason, sourcePin } from '../lib/source/source-pin.js';
import { DeadlineExceededError, RunStoppedError, TileDataError, TileRetryableError } from './errors.js';
import type { MemberAccess } from './member-access.js';
import type { ProcessTiles } from './process-tiles.js';
import type { SourceAccess } from './source-access.js';

export interface SourceVersionGuardDeps {
  readonly ledger: Ledger;
  readonly sources: SourceAccess;
  /** A collection run's members: a metatile's failure may be one of them gone. */
  readonly members?: MemberAccess;
  readonly log: Logger;
}

/**
 * A metatile that failed may have failed because the run's source version is gone (a pinned read
 * refused other bytes: If-Match or the version id). That is no data failure to retry or count
 * against the breaker: the run cannot finish. Asked once per failure, with one HEAD: the run then
 * drains with one clear reason, and its execution ends FAILED with it (docs/architecture.md).
 */
/** Why the run cannot finish, if its source (or a member under the metatile) is gone; one HEAD each. */
async function goneReason(
  deps: SourceVersionGuardDeps,
  run: RunHead,
  members: readonly number[] | undefined,
  signal: AbortSignal,
): Promise<string | undefined> {
  if (members && deps.members) {
    const gone = await deps.members.gone(run, members, signal).catch(() => undefined);
    return gone ? sourceGoneReason(memberSource(run.source.bucket, gone)) : undefined;
  }
  if (await deps.sources.readable(run, signal).catch(() => true)) return undefined;
  return sourceGoneReason(run.source);
}

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
      const reason = await goneReason(deps, run, metatile.members, signal);
      if (!reason) throw error;
      await deps.ledger.updateRun(run.runId, { status: 'DRAINING', reason }, ['RUNNING']);
      deps.log.error(
        { runId: run.runId, tiles: metatile.tiles.length, reason },
        'source version gone: the run stops',
      );
      throw new RunStoppedError(run.runId, 'DRAINING', reason, { cause: error });
    }
  };
}
