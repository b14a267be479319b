import type { Ledger } from '../ledger/ledger.js';
import { MAX_TILES_PER_MESSAGE, parseTileMessage, serializeTileMessage } from '../model/message.js';
import type { TileTask } from '../model/tile.js';
import type { WorkQueue } from '../queue/work-queue.js';
import type { ExecutionStarter } from './execution-starter.js';

export interface RedriveDeps {
  readonly ledger: Ledger;
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
  const fromDlq = new Map<string, number>();
  const seen = new Set<string>();
  let leftInDeadLetters = 0;
  for (;;) {
    const messages = await deps.deadLetters.receive(10, 0, 30);
    const fresh = messages.filter((m) => !seen.has(m.id));
    if (fresh.length === 0) {
      for (const m of messages) await deps.deadLetters.setVisibility(m, 0);
      break;
    }
    for (const message of messages) {
      seen.add(message.id);
      const parsed = parseTileMessage(message.body);
      if (!parsed.ok || (onlyRunId !== undefined && parsed.message.runId !== onlyRunId)) {
        if (!parsed.ok) leftInDeadLetters += 1;
        await deps.deadLetters.setVisibility(message, 0);
        continue;
      }
      const sent = await deps.queue.sendBatch([message.body]);
      if (sent.failed.length > 0)
        throw new Error(`could not re-queue a dead letter: ${sent.failed[0]!.reason}`);
      await deps.deadLetters.delete(message);
      const runId = parsed.message.runId;
      fromDlq.set(runId, (fromDlq.get(runId) ?? 0) + parsed.message.tiles.length);
    }
  }

  const runIds = new Set(fromDlq.keys());
  if (onlyRunId) runIds.add(onlyRunId);
  const runs: RedriveReport['runs'][number][] = [];
  for (const runId of runIds) {
    const run = await deps.ledger.getRun(runId);
    if (!run) continue;
    const tiles: TileTask[] = await deps.ledger.unparkTiles(runId);
    const bodies: string[] = [];
    for (let i = 0; i < tiles.length; i += MAX_TILES_PER_MESSAGE) {
      bodies.push(serializeTileMessage({ v: 1, runId, tiles: tiles.slice(i, i + MAX_TILES_PER_MESSAGE) }));
    }
    const sent = await deps.queue.sendBatch(bodies);
    if (sent.failed.length > 0)
      throw new Error(`could not re-queue ${sent.failed.length} messages of ${runId}`);
    await deps.ledger.resetBreaker(runId);
    let executionArn: string | undefined;
    const wasFinished = run.status !== 'RUNNING';
    await deps.ledger.updateRun(runId, { status: 'RUNNING', reason: 're-driven' }, [
      'FAILED',
      'CANCELLED',
      'DRAINING',
      'SUCCEEDED',
    ]);
    if (wasFinished) {
      // The run's execution has ended: a new one resumes at the progress loop (no split, no enqueue).
      const name = `${runId}-redrive-${(deps.now ?? Date.now)()}`;
      const started = await deps.starter.start(name, {
        runId,
        executionArn: deps.starter.arnFor(name),
        source: run.source,
        operation: run.operation,
        params: run.params,
        resume: true,
      });
      executionArn = started.executionArn;
      await deps.ledger.updateRun(runId, { executionArn });
    }
    runs.push({ runId, fromDeadLetters: fromDlq.get(runId) ?? 0, unparked: tiles.length, executionArn });
  }
  return { runs, leftInDeadLetters };
}
