import type { RequestOptions } from '../store/object-store.js';

/** Starts state-machine executions (Step Functions on AWS, the local runner on a laptop). */
export interface ExecutionStarter {
  /** The ARN an execution of this name has (deterministic), so its input can carry it. */
  arnFor(name: string): string;
  /**
   * Starts an execution under a deterministic name. A name already used is not an error:
   * it is how a duplicate S3 event becomes a no-op.
   */
  start(
    name: string,
    input: Readonly<Record<string, unknown>>,
    options?: RequestOptions,
  ): Promise<{ executionArn: string; started: boolean }>;
  /** The execution's status, or undefined when there is no such execution (both real starters tell). */
  statusOf?(executionArn: string, options?: RequestOptions): Promise<string | undefined>;
}
