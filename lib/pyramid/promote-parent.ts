import { sendBodies } from '../enqueue/send-bodies.js';
import type { Ledger } from '../ledger/ledger.js';
import { metatileMessage } from '../model/message.js';
import type { ParentRef } from '../model/metatile.js';
import type { TileState } from '../model/run.js';
import type { WorkQueue } from '../queue/work-queue.js';
import type { ObjectStore } from '../store/object-store.js';
import { PyramidPlanError } from './errors.js';
import { readParentLines } from './parent-lines.js';

/** A child in one of these no longer changes without a re-drive: its parent need not wait for it. */
const ACCOUNTED: readonly TileState[] = ['DONE', 'FAILED', 'PARKED', 'CANCELLED'];

export interface PromoteDeps {
  readonly ledger: Pick<Ledger, 'getMetatiles'>;
  readonly store: ObjectStore;
  readonly queue: Pick<WorkQueue, 'sendBatch'>;
  readonly signal?: AbortSignal;
}

/**
 * Called once a metatile of a pyramid is accounted for, before its message is deleted
 * (docs/architecture.md#pyramids): when every sibling is accounted for too, sends the parent's
 * lines. Every sibling reads all the others after its own marker (consistent reads), so the last
 * to be marked sees them all: a parent is sent at least once, by whoever finishes its region,
 * without waiting for the rest of the level. Two siblings ending together may both send it: the
 * parent's claim makes that harmless. A failure throws, and the message stays to try again.
 */
export async function promoteParent(
  deps: PromoteDeps,
  runId: string,
  up: ParentRef,
): Promise<'sent' | 'waiting'> {
  const parents = await readParentLines(deps.store, runId, up, deps.signal);
  const children = parents[0]?.children;
  if (parents.length !== up.lines || !children) {
    throw new PyramidPlanError(
      `run ${runId}: the parent lines at manifest-levels part ${up.part}, byte ${up.offset}, are not the ${up.lines} metatiles with children its child expects`,
    );
  }
  const records = await deps.ledger.getMetatiles(runId, children);
  const waiting = children.some((id) => {
    const state = records.get(id)?.state;
    return state === undefined || !ACCOUNTED.includes(state);
  });
  if (waiting) return 'waiting';
  await sendBodies(
    deps.queue,
    parents.map((p) => metatileMessage(runId, p)),
    1,
    deps.signal,
  );
  return 'sent';
}
