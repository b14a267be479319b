import {
  DescribeExecutionCommand,
  ExecutionDoesNotExist,
  type SFNClient,
  StopExecutionCommand,
} from '@aws-sdk/client-sfn';

/** An execution as an operator sees it: how it stands, and why it ended. */
export interface ExecutionView {
  readonly executionArn: string;
  readonly status: string;
  readonly startedAt?: string;
  readonly stoppedAt?: string;
  readonly error?: string;
  readonly cause?: string;
}

/** What an operator does with a run's execution on AWS: look at it, and stop it (the console's Stop). */
export interface ExecutionControl {
  /** Undefined when Step Functions has no such execution (never started, or past its retention). */
  describe(executionArn: string): Promise<ExecutionView | undefined>;
  stop(executionArn: string, cause: string): Promise<void>;
}

export function createSfnControl(sfn: SFNClient): ExecutionControl {
  return {
    async describe(executionArn) {
      try {
        const r = await sfn.send(new DescribeExecutionCommand({ executionArn }));
        return {
          executionArn,
          status: r.status ?? 'UNKNOWN',
          ...(r.startDate ? { startedAt: r.startDate.toISOString() } : {}),
          ...(r.stopDate ? { stoppedAt: r.stopDate.toISOString() } : {}),
          ...(r.error ? { error: r.error } : {}),
          ...(r.cause ? { cause: r.cause } : {}),
        };
      } catch (error) {
        if (error instanceof ExecutionDoesNotExist) return undefined;
        throw error;
      }
    },
    async stop(executionArn, cause) {
      await sfn.send(new StopExecutionCommand({ executionArn, cause }));
    },
  };
}
