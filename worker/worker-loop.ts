import type { Logger } from '../lib/log/logger.js';
import { ProcessGroupSurvivedError } from '../lib/process/errors.js';
import type { ReceivedMessage, WorkQueue } from '../lib/queue/work-queue.js';
import { EXIT_FATAL, EXIT_INTERRUPTED, EXIT_OK } from './exit-codes.js';
import type { MessageOutcome } from './handle-message.js';
import type { StopController } from './stop-controller.js';

export interface WorkerLoopDeps {
  readonly queue: WorkQueue;
  readonly log: Logger;
  readonly stop: StopController;
  readonly receiveWaitSeconds: number;
  /** Visibility on receive: the lease, so a worker that dies early gives its message back soon. */
  readonly visibilitySeconds: number;
  readonly idleExitMs?: number;
  readonly handle: (message: ReceivedMessage) => Promise<MessageOutcome>;
  readonly now?: () => number;
}

/**
 * Long-polls the queue and handles one message at a time (one tool per worker: scale with
 * workers). Returns the exit code: 75 after a stop request, 0 after the idle limit, 1 when
 * a tool's process group survived SIGKILL.
 */
export async function workerLoop(deps: WorkerLoopDeps): Promise<number> {
  const now = deps.now ?? Date.now;
  let lastWork = now();
  while (!deps.stop.requested.aborted) {
    if (deps.idleExitMs !== undefined && now() - lastWork >= deps.idleExitMs) return EXIT_OK;
    let messages: Awaited<ReturnType<WorkQueue['receive']>>;
    try {
      messages = await deps.queue.receive(1, deps.receiveWaitSeconds, deps.visibilitySeconds, {
        signal: deps.stop.requested,
      });
    } catch (error) {
      if (deps.stop.requested.aborted) break;
      deps.log.warn({ err: error }, 'receive failed; backing off');
      await new Promise((r) => setTimeout(r, 1_000));
      continue;
    }
    for (const message of messages) {
      lastWork = now();
      if (deps.stop.requested.aborted) {
        // Received but not started: back at once, as a fresh copy.
        await deps.queue.requeue(message).catch((e: unknown) => deps.log.error({ err: e }, 'requeue failed'));
        continue;
      }
      try {
        const outcome = await deps.handle(message);
        deps.log.debug({ messageId: message.id, outcome }, 'message handled');
      } catch (error) {
        if (error instanceof ProcessGroupSurvivedError) {
          // This machine cannot kill its tools: take no more work, exit 1 so the task is
          // replaced. The claim and the message stay; both come back when the lease expires.
          deps.log.fatal(
            { err: error, messageId: message.id },
            'a tool survived SIGKILL: taking no more work; the claim is kept until its lease expires',
          );
          return EXIT_FATAL;
        }
        // The message stays invisible until its timeout and comes back: nothing is lost.
        deps.log.error({ err: error, messageId: message.id }, 'message failed; it will be redelivered');
      }
      lastWork = now();
    }
  }
  return EXIT_INTERRUPTED;
}
