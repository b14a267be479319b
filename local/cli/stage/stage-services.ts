import { type Adapters, createAdapters } from '../../../lib/adapters/create-adapters.js';
import { createLambdaInvoker, type InvokeJson } from '../../../lib/aws/lambda-invoke.js';
import { createSfnClient } from '../../../lib/aws/sfn-client.js';
import { operatorCancel } from '../../../lib/coordination/operator-cancel.js';
import type { RedriveReport } from '../../../lib/coordination/redrive.js';
import { createSfnControl, type ExecutionControl } from '../../../lib/executions/sfn-control.js';
import type { QueueDepths } from '../operator/operator.js';
import type { StageTarget } from './discover-stage.js';

/** A deployed stage's services, reached with the operator's own credentials, closed together. */
export interface StageServices {
  readonly target: StageTarget;
  /** The ledger, bucket, queues and execution chain: the adapters the functions use. */
  readonly aws: Adapters;
  readonly executions: ExecutionControl;
  /** An operator's cancel (operator-cancel.ts): the execution stopped, or an idle run recorded; `by` says who in the stop's cause. */
  cancel(runId: string, by: string): ReturnType<typeof operatorCancel>;
  redrive(runId?: string): Promise<RedriveReport>;
  queues(): Promise<QueueDepths>;
  close(): void;
}

export function stageServices(target: StageTarget): StageServices {
  const aws = createAdapters(target.config);
  const sfn = createSfnClient(target.config);
  const lambda: { invoke: InvokeJson; destroy(): void } = createLambdaInvoker(target.config);
  const executions = createSfnControl(sfn);
  return {
    target,
    aws,
    executions,
    cancel: (runId, by) =>
      operatorCancel(
        {
          ledger: aws.ledger,
          executions: {
            isRunning: async (arn) => (await executions.describe(arn))?.status === 'RUNNING',
            stop: (arn) => executions.stop(arn, `cancelled by an operator (${by})`),
          },
        },
        runId,
      ),
    // The redrive function, as `aws lambda invoke` would run it: under its own role.
    redrive: (runId) =>
      lambda.invoke<RedriveReport>(target.outputs.RedriveFunctionName, runId ? { runId } : {}),
    queues: async () => {
      const [work, deadLetters] = await Promise.all([aws.queue.depth(), aws.deadLetters.depth()]);
      return { work, deadLetters };
    },
    close() {
      aws.destroy();
      sfn.destroy();
      lambda.destroy();
    },
  };
}
