import type { ExecutionStarter } from '../executions/execution-starter.js';
import type { ExecutionChain } from '../ledger/execution-chain.js';
import type { Ledger } from '../ledger/ledger.js';
import { metatileMessage, parseTileMessage } from '../model/message.js';
import type { ReceivedMessage, WorkQueue } from '../queue/work-queue.js';
import { RequeueFailedError } from './errors.js';
import { startSuccessor } from './start-successor.js';

/** The shortest long poll: it returns as soon as letters are there, or after a second. */
const LONG_POLL_SECONDS = 1;

export interface RedriveDeps {
  readonly ledger: Ledger;
  readonly chain: ExecutionChain;
  readonly queue: WorkQueue;
  readonly deadLetters: WorkQueue;
  readonly starter: ExecutionStarter;
  readonly now?: () => number;
}

export interface RedriveReport {
  readonly runs: readonly {
    runId: string;
    fromDeadLetters: number;
    unparked: number;
    executionArn?: string;
  }[];
  /** Dead-lettered bodies that belong to no run (malformed): left in the DLQ for a person. */
  readonly leftInDeadLetters: number;
}

/**
 * Gives stopped work a fresh budget: dead-lettered messages go back to the work queue as new
 * messages (receive count 0), parked/cancelled/failed sub-tiles are queued again, the
 * breaker's evidence is reset, and a new execution resumes coordinating the run.
 */
export async function redrive(deps: RedriveDeps, onlyRunId?: string): Promise<RedriveReport> {
  // 1. Collect the dead letters to re-drive (they stay hidden while we work on them). A long
  // poll, however short: a short poll asks a sample of SQS's servers and may answer nothing
  // while letters remain, which ended this loop with them left behind. A long poll asks every
  // server, so an empty answer means no visible letter is left.
  const dead = new Map<string, ReceivedMessage[]>();
  const seen = new Set<string>();
  let leftInDeadLetters = 0;
  for (;;) {
    const messages = await deps.deadLetters.receive(10, LONG_POLL_SECONDS, 60);
    const fresh = messages.filter((m) => !seen.has(m.id));
    if (fresh.length === 0) {
      for (const m of messages) await deps.deadLetters.setVisibility(m, 0);
      break;
    }
    for (const message of fresh) {
      seen.add(message.id);
      const parsed = parseTileMessage(message.body);
      if (!parsed.ok || (onlyRunId !== undefined && parsed.message.runId !== onlyRunId)) {
        if (!parsed.ok) leftInDeadLetters += 1;
        await deps.deadLetters.setVisibility(message, 0);
        continue;
      }
      const list = dead.get(parsed.message.runId) ?? [];
      list.push(message);
      dead.set(parsed.message.runId, list);
    }
  }

  const runIds = new Set(dead.keys());
  if (onlyRunId) runIds.add(onlyRunId);
  const runs: RedriveReport['runs'][number][] = [];
  for (const runId of runIds) {
    const run = await deps.ledger.getRun(runId);
    if (!run) continue;
    // 2. The run takes work again *before* any comes back: a worker must not park it anew.
    await deps.ledger.resetBreaker(runId);
    // A RUNNING run whose execution died (its end never recorded) is resumable too.
    let live = false;
    if (run.executionArn)
      live = deps.starter.statusOf ? (await deps.starter.statusOf(run.executionArn)) === 'RUNNING' : true;
    const wasFinished = run.status !== 'RUNNING' || !live;
    await deps.ledger.updateRun(runId, { status: 'RUNNING', reason: 're-driven' }, [
      'FAILED',
      'CANCELLED',
      'DRAINING',
      'SUCCEEDED',
    ]);
    // 3. Parked, cancelled and failed sub-tiles, as new messages.
    // One message per metatile, as enqueued: the block keeps its claim item.
    const metatiles = await deps.ledger.unpark(runId);
    const bodies = metatiles.map((m) => metatileMessage(runId, m));
    const unparked = metatiles.reduce((n, m) => n + m.tiles.length, 0);
    // 4. Dead letters, as new messages: a fresh receive budget.
    const letters = dead.get(runId) ?? [];
    const sent = await deps.queue.sendBatch([...bodies, ...letters.map((m) => m.body)]);
    if (sent.failed.length > 0)
      throw new RequeueFailedError(`could not re-queue ${sent.failed.length} messages of ${runId}`);
    for (const letter of letters) await deps.deadLetters.delete(letter);
    const fromDeadLetters = letters.reduce((n, m) => {
      const parsed = parseTileMessage(m.body);
      return n + (parsed.ok ? parsed.message.tiles.length : 0);
    }, 0);

    let executionArn: string | undefined;
    if (wasFinished) {
      // The run's execution has ended: a new one resumes at the progress loop.
      const name = `${runId}-redrive-${(deps.now ?? Date.now)()}`;
      executionArn = await startSuccessor(deps, name, 'redrive', run);
    }
    runs.push({ runId, fromDeadLetters, unparked, executionArn });
  }
  return { runs, leftInDeadLetters };
}
