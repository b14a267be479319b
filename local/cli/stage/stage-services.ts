import { type Adapters, createAdapters } from '../../../lib/adapters/create-adapters.js';
import { createLambdaInvoker, type InvokeJson } from '../../../lib/aws/lambda-invoke.js';
import { createSfnClient } from '../../../lib/aws/sfn-client.js';
import type { RedriveReport } from '../../../lib/coordination/redrive.js';
import { createSfnControl, type ExecutionControl } from '../../../lib/executions/sfn-control.js';
import type { StageTarget } from './discover-stage.js';

/** A deployed stage's services, reached with the operator's own credentials, closed together. */
export interface StageServices {
  readonly target: StageTarget;
  /** The ledger, bucket, queues and execution chain: the adapters the functions use. */
  readonly aws: Adapters;
  readonly executions: ExecutionControl;
  redrive(runId?: string): Promise<RedriveReport>;
  close(): void;
}

export function stageServices(target: StageTarget): StageServices {
  const aws = createAdapters(target.config);
  const sfn = createSfnClient(target.config);
  const lambda: { invoke: InvokeJson; destroy(): void } = createLambdaInvoker(target.config);
  return {
    target,
    aws,
    executions: createSfnControl(sfn),
    // The redrive function, as `aws lambda invoke` would run it: under its own role.
    redrive: (runId) =>
      lambda.invoke<RedriveReport>(target.outputs.RedriveFunctionName, runId ? { runId } : {}),
    close() {
      aws.destroy();
      sfn.destroy();
      lambda.destroy();
    },
  };
}
