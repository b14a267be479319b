export type ExecutionEnd = 'SUCCEEDED' | 'FAILED' | 'ABORTED' | 'TIMED_OUT' | 'HANDED_OVER';

/** One execution that coordinated (part of) a run: a run of any length is a chain of them. */
export interface ExecutionLink {
  readonly executionArn: string;
  /** Why it started: the upload, a hand-over before the history limit, or an operator's re-drive. */
  readonly reason: 'upload' | 'handover' | 'redrive';
  readonly startedAt: string;
  readonly status: 'RUNNING' | ExecutionEnd;
  readonly endedAt?: string;
  readonly error?: string;
  readonly cause?: string;
}

/**
 * The executions of each run, in start order (docs/architecture.md, "Runs of any length").
 * Kept apart from the run's counters: one small item per execution under the run's partition.
 */
export interface ExecutionChain {
  /** Records a started execution; recording the same one twice keeps the first record. */
  started(runId: string, executionArn: string, reason: ExecutionLink['reason']): Promise<void>;
  /** Records how it ended; an execution already recorded as ended keeps its first end. */
  ended(
    runId: string,
    executionArn: string,
    end: { status: ExecutionEnd; error?: string; cause?: string },
  ): Promise<void>;
  list(runId: string): Promise<ExecutionLink[]>;
}
