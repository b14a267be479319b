import type { Logger } from '../lib/log/logger.js';
import { ProcessGroupSurvivedError } from '../lib/process/errors.js';
import type { ReceivedMessage, WorkQueue } from '../lib/queue/work-queue.js';
import { EXIT_FATAL, EXIT_INTERRUPTED, EXIT_OK } from './exit-codes.js';
import type { MessageOutcome } from './handle-message.js';
import { createHandoff, type Handoff } from './handoff.js';
import type { StopController } from './stop-controller.js';

export interface WorkerLoopDeps {
  readonly queue: WorkQueue;
  readonly log: Logger;
  readonly stop: StopController;
  readonly receiveWaitSeconds: number;
  /** Visibility on receive: the lease, so a worker that dies early gives its message back soon. */
  readonly visibilitySeconds: number;
  readonly idleExitMs?: number;
  /**
   * Abandons a receive in flight at once: a SIGINT, or a local pool's stack going away with its
   * queue (worker/env-from-parent.ts). Nothing else aborts a receive, see below.
   */
  readonly abandonReceive?: AbortSignal;
  /** Handles one message; calls `handoff.toolDone` when its tool is over (see handoff.ts). */
  readonly handle: (message: ReceivedMessage, handoff: Handoff) => Promise<MessageOutcome>;
  /** Called when a receive comes back empty: nothing to batch with soon (pending deletes go out). */
  readonly onIdle?: () => Promise<void>;
  readonly now?: () => number;
}

/**
 * Long-polls the queue and handles one message at a time in its tool, overlapped with the previous
 * message's uploads and marker (handoff.ts: at most two metatiles in flight, one tool per worker:
 * scale with workers). Returns the exit code: 75 after a stop request, 0 after the idle limit, 1
 * when a tool's process group survived SIGKILL. Every message in flight is finished (or cancelled
 * cleanly, at the stop cutoff) before it returns.
 */
export async function workerLoop(deps: WorkerLoopDeps): Promise<number> {
  const now = deps.now ?? Date.now;
  let lastWork = now();
  // Settles when every message taken so far is finished; never rejects.
  let previous: Promise<void> = Promise.resolve();
  let fatal: ProcessGroupSurvivedError | undefined;
  const handleOne = (message: ReceivedMessage, handoff: Handoff) =>
    deps.handle(message, handoff).then(
      (outcome) => {
        lastWork = now();
        deps.log.debug({ messageId: message.id, outcome }, 'message handled');
      },
      (error: unknown) => {
        lastWork = now();
        if (error instanceof ProcessGroupSurvivedError) {
          // This machine cannot kill its tools: take no more work, exit 1 so the task is
          // replaced. The claim and the message stay; both come back when the lease expires.
          deps.log.fatal(
            { err: error, messageId: message.id },
            'a tool survived SIGKILL: taking no more work; the claim is kept until its lease expires',
          );
          fatal = error;
          return;
        }
        // The message stays invisible until its timeout and comes back: nothing is lost.
        deps.log.error({ err: error, messageId: message.id }, 'message failed; it will be redelivered');
      },
    );
  while (!deps.stop.requested.aborted && !fatal) {
    if (deps.idleExitMs !== undefined && now() - lastWork >= deps.idleExitMs) {
      await previous;
      if (now() - lastWork >= deps.idleExitMs) break;
      continue;
    }
    let messages: Awaited<ReturnType<WorkQueue['receive']>>;
    try {
      // Not aborted at a SIGTERM, not even at its cutoff: SQS hands a long poll's messages to it
      // even once its client has gone, and each would stay invisible for a lease (a minute's
      // stall of its metatile). The poll ends by itself within receiveWaitSeconds, which the
      // config keeps inside the stop grace; what it brings after the stop is requeued fresh below.
      messages = await deps.queue.receive(1, deps.receiveWaitSeconds, deps.visibilitySeconds, {
        signal: deps.abandonReceive,
      });
    } catch (error) {
      // Abandoned: the stack goes (its SIGTERM may be a moment behind) or the stop cut it.
      if (deps.stop.requested.aborted || deps.abandonReceive?.aborted) break;
      deps.log.warn({ err: error }, 'receive failed; backing off');
      await new Promise((r) => setTimeout(r, 1_000));
      continue;
    }
    if (messages.length === 0) await deps.onIdle?.();
    for (const message of messages) {
      lastWork = now();
      if (deps.stop.requested.aborted || fatal) {
        // Received but not started: back at once, as a fresh copy.
        await deps.queue.requeue(message).catch((e: unknown) => deps.log.error({ err: e }, 'requeue failed'));
        continue;
      }
      const handoff = createHandoff(previous);
      const done = handleOne(message, handoff);
      previous = Promise.all([previous, done]).then(() => {});
      // On to the next message once this one's tool is over and the one before it is marked.
      await Promise.race([handoff.handed, done]);
      lastWork = now();
    }
  }
  await previous;
  if (fatal) return EXIT_FATAL;
  return deps.stop.requested.aborted ? EXIT_INTERRUPTED : EXIT_OK;
}
