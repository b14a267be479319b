import { LedgerBusyError } from '../lib/ledger/errors.js';
import type { Logger } from '../lib/log/logger.js';
import { parseTileMessage } from '../lib/model/message.js';
import { metatileOf, type ParentRef, withLinks } from '../lib/model/metatile.js';
import { STOPPED_RUN_STATUSES, type TileState } from '../lib/model/run.js';
import { readChildren } from '../lib/pyramid/child-tiles.js';
import { promoteParent } from '../lib/pyramid/promote-parent.js';
import type { ReceivedMessage } from '../lib/queue/work-queue.js';
import { attemptMetatile } from './attempt-metatile.js';
import { redeliveredAfterCrash } from './crash-redelivery.js';
import { RunStoppedError } from './errors.js';
import type { HandleMessageDeps } from './handle-message-deps.js';
import { type Handoff, NO_HANDOFF } from './handoff.js';
import { type Disposition, errorOf } from './message-policy.js';

/** What became of a message; `malformed` and `unknown-run` messages went to the dead-letter queue. */
export type MessageOutcome =
  | 'completed'
  /** A lower-level metatile whose children are not all made: its last child sends it again. */
  | 'waiting'
  | 'malformed'
  | 'unknown-run'
  | 'dropped'
  | 'retry-later'
  | 'interrupted';

const ACCOUNTED: readonly TileState[] = ['DONE', 'FAILED', 'PARKED', 'CANCELLED'];
const OUTCOME: Record<Disposition, MessageOutcome> = {
  delete: 'completed',
  requeue: 'interrupted',
  retry: 'retry-later',
  leave: 'retry-later',
};

/**
 * One message = one metatile, start to end: skip it if accounted for, claim it, make and upload
 * its tiles, write its one marker (`handoff.toolDone` once its tool is over, so the worker's next
 * metatile starts its tool while this one uploads); every other exit goes through `failurePolicy` (release,
 * disposition, log). A ProcessGroupSurvivedError is rethrown: the worker must stop.
 */
export async function handleMessage(
  deps: HandleMessageDeps,
  message: ReceivedMessage,
  handoff: Handoff = NO_HANDOFF,
): Promise<MessageOutcome> {
  try {
    return await handleOne(deps, message, handoff);
  } catch (error) {
    if (!(error instanceof LedgerBusyError)) throw error;
    // Busy before any claim: nothing to give back; a fresh copy keeps the receive budget whole.
    deps.log.warn({ messageId: message.id, err: error }, 'ledger busy; message back to the queue');
    await deps.queue.requeue(message);
    return 'interrupted';
  }
}

async function handleOne(
  deps: HandleMessageDeps,
  message: ReceivedMessage,
  handoff: Handoff,
): Promise<MessageOutcome> {
  const { ledger, queue } = deps;
  const now = deps.now ?? Date.now;
  const parsed = parseTileMessage(message.body);
  const metatile = parsed.ok
    ? withLinks(metatileOf(parsed.message.tiles, parsed.message.members), parsed.message)
    : undefined;
  // The run and the metatile's record side by side: a message of a finished metatile (a re-run,
  // a redelivery) is skipped after one round trip to the ledger, not two.
  // Not abandoned at the stop cutoff (bounded by the request timeout): a claim whose outcome is
  // unknown would stay CLAIMED until its lease expired; a claim made after the cutoff is given
  // back at once as interrupted (attempt-metatile.ts).
  const [run, record] = parsed.ok
    ? await Promise.all([
        ledger.getRunHead(parsed.message.runId),
        ledger.getMetatile(parsed.message.runId, metatile!.id),
      ])
    : [undefined, undefined];
  if (!parsed.ok || !run || !metatile) {
    // Nothing can ever process it; keep it, with the reason, where an operator will look.
    const reason = parsed.ok ? `unknown run ${parsed.message.runId}` : parsed.reason;
    deps.log.error({ messageId: message.id, reason }, 'message moved to the dead-letter queue');
    await queue.deadLetter(message, reason);
    return parsed.ok ? 'unknown-run' : 'malformed';
  }
  const log = deps.log.child({ runId: run.runId, metatileId: metatile.id, tiles: metatile.tiles.length });
  const dispose = async (disposition: Disposition, outcome = OUTCOME[disposition], delaySeconds?: number) => {
    if (disposition === 'delete') await queue.delete(message);
    else if (disposition === 'requeue') await queue.requeue(message, delaySeconds ? { delaySeconds } : {});
    else if (disposition === 'retry')
      await queue.setVisibility(message, delaySeconds ?? deps.retryDelaySeconds);
    return outcome;
  };
  // The metatile is accounted for: its parent may now be complete (lib/pyramid/promote-parent.ts).
  // Until the parent is sent, the message stays: a crash here loses no parent.
  const accounted = async (outcome: MessageOutcome = 'completed') => {
    if (metatile.up && !(await sendParentIfReady(deps, run.runId, metatile.up, log))) return dispose('retry');
    return dispose('delete', outcome);
  };

  if (STOPPED_RUN_STATUSES.includes(run.status)) {
    const why = new RunStoppedError(run.runId, run.status, run.reason);
    const state = run.status === 'CANCELLED' ? 'CANCELLED' : 'PARKED';
    await ledger.park(run.runId, [metatile], state, errorOf(why));
    const held = await ledger.getMetatile(run.runId, metatile.id);
    if (held?.state === 'CLAIMED') {
      // Its holder's lease is still live: keep the message until it lapses, so a dead holder's
      // metatile is parked then, never stranded as CLAIMED without a message.
      return dispose(
        'requeue',
        'retry-later',
        Math.max(1, Math.ceil(((held.leaseUntil ?? 0) - now()) / 1000) + 1),
      );
    }
    log.info({ state }, 'metatile dropped with its run');
    return accounted('dropped');
  }
  // Skip what is accounted for: no tool work, no S3 HEAD.
  if (record && ACCOUNTED.includes(record.state)) {
    log.info(
      { state: record.state, receiveCount: message.receiveCount },
      'metatile already accounted for; skipped',
    );
    return accounted();
  }
  if (metatile.children) {
    const children = await readChildren(ledger, run.runId, metatile);
    if (!children.ready) {
      log.info(
        { pending: children.pending },
        'children not all made; the last one sends this metatile again',
      );
      return dispose('delete', 'waiting');
    }
  }
  if (deps.stop.requested.aborted || redeliveredAfterCrash(message, record, now())) {
    log.warn(
      { receiveCount: message.receiveCount, left: metatile.tiles.length },
      'metatile back to the queue, fresh',
    );
    return dispose('requeue');
  }
  const claim = await ledger.claim(run.runId, metatile, deps.workerId, deps.leaseMs);
  if (claim.outcome === 'held') {
    // Another worker holds a live lease (a redelivery): look again once it expires.
    log.info({ receiveCount: message.receiveCount }, 'metatile held by another worker; looking again later');
    // A fresh copy, delayed until then: waiting out a live lease spends none of the receive
    // budget (with SIGKILLs and a pyramid's duplicate parents, three receives came close).
    return dispose('requeue', 'retry-later', Math.max(1, Math.ceil((claim.leaseUntil - now()) / 1000) + 1));
  }
  if (claim.outcome !== 'claimed') return accounted();
  // The metatile is the unit of claim and marker: on entry all its sub-tiles remain.
  log.info(
    { attempt: claim.attempts, receiveCount: message.receiveCount, remaining: metatile.tiles.length },
    `metatile claimed: ${metatile.tiles.length} sub-tiles remain`,
  );
  const disposition = await attemptMetatile(deps, run, claim.claim, message, log, handoff);
  // Deleted: marked done or failed for good.
  return disposition === 'delete' ? accounted() : dispose(disposition);
}

/** Sends the metatile's parent if every sibling is accounted for; false when that could not be known or done. */
async function sendParentIfReady(
  deps: HandleMessageDeps,
  runId: string,
  up: ParentRef,
  log: Logger,
): Promise<boolean> {
  try {
    const sent = await promoteParent(
      { ledger: deps.ledger, store: deps.store, queue: deps.queue },
      runId,
      up,
    );
    if (sent === 'sent') log.info({ lines: up.lines }, 'every sibling accounted for; parent sent');
    return true;
  } catch (error) {
    log.warn({ err: error }, 'parent not sent; the message comes back to try again');
    return false;
  }
}
