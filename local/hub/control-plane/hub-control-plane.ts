import { redriveEventSchema } from '../../../lib/coordination/events.js';
import type { RedriveReport } from '../../../lib/coordination/redrive.js';
import { LOCAL_STACK_ID } from '../../iam/action-table.js';
import { stackNameOf } from '../../iam/operator-policy.js';
import { readServerlessDocument } from '../../stack/serverless-document.js';
import {
  ADMINISTRATOR,
  LOCAL_ACCOUNT,
  LOCAL_REGION,
  LOCAL_STAGE,
  type LocalStack,
} from '../../stack/stack.js';
import { localStackOutputs } from '../../stack/stack-outputs.js';
import type { LocalExecutions } from '../../statemachine/local-executions.js';
import { type ControlPlane, startControlPlane } from './control-plane.js';

/**
 * The local stack as a deployed stage looks to the CLI's `--stage local`: its outputs from the
 * template resolved to the local resources, its executions and the redrive function.
 */
export async function startHubControlPlane(
  stack: LocalStack,
  executions: Pick<LocalExecutions, 'get' | 'stop'>,
  redrive: (runId?: string) => Promise<RedriveReport>,
  document: unknown = readServerlessDocument(),
): Promise<ControlPlane> {
  const scope = { partition: 'aws', region: LOCAL_REGION, account: LOCAL_ACCOUNT };
  const stackName = stackNameOf(LOCAL_STAGE);
  // A queue's URL names where SQS answers (the SDK sends to the URL's host): here, the front
  // door IAM stands at, as sqs.<region>.amazonaws.com is on AWS.
  const frontDoor = (url: string) => {
    const door = stack.envFor(ADMINISTRATOR).GEOHUB_ENDPOINT_SQS;
    return door ? `${door.replace(/\/+$/, '')}${new URL(url).pathname}` : url;
  };
  const outputs = localStackOutputs(document, { stage: LOCAL_STAGE, region: LOCAL_REGION }, scope, {
    WorkQueue: frontDoor(stack.config.queueUrl),
    DeadLetterQueue: frontDoor(stack.config.deadLetterQueueUrl),
  });
  return startControlPlane({
    stack: {
      stackName,
      stackId: `arn:aws:cloudformation:${LOCAL_REGION}:${LOCAL_ACCOUNT}:stack/${stackName}/${LOCAL_STACK_ID}`,
      createdAt: new Date(),
      outputs,
    },
    stateMachineArn: outputs.StateMachineArn!,
    executions,
    functions: {
      [outputs.RedriveFunctionName!]: async (payload) =>
        redrive(redriveEventSchema.parse(payload ?? {}).runId),
    },
    iam: stack.iam,
    stackKeyId: stack.env.GEOHUB_LOCAL_ACCESS_KEY_ID ?? '',
  });
}

/**
 * The environment an AWS SDK user (the CLI with `--stage local`) needs to reach the local stack
 * as if it were AWS: the standard endpoint overrides and the principal's own key.
 */
export function awsEnvFor(
  stack: LocalStack,
  controlPlane: ControlPlane,
  principal: string,
): Record<string, string> {
  const env = stack.envFor(principal);
  return {
    AWS_ENDPOINT_URL_S3: env.GEOHUB_ENDPOINT_S3!,
    AWS_ENDPOINT_URL_DYNAMODB: env.GEOHUB_ENDPOINT_DYNAMODB!,
    AWS_ENDPOINT_URL_SQS: env.GEOHUB_ENDPOINT_SQS!,
    AWS_ENDPOINT_URL_CLOUDFORMATION: controlPlane.endpoint,
    AWS_ENDPOINT_URL_SFN: controlPlane.endpoint,
    AWS_ENDPOINT_URL_LAMBDA: controlPlane.endpoint,
    AWS_ACCESS_KEY_ID: env.GEOHUB_LOCAL_ACCESS_KEY_ID!,
    AWS_SECRET_ACCESS_KEY: env.GEOHUB_LOCAL_SECRET_ACCESS_KEY!,
    AWS_REGION: LOCAL_REGION,
    // s3rver stores aws-chunked framing verbatim unless checksums are sent only when required.
    AWS_REQUEST_CHECKSUM_CALCULATION: 'WHEN_REQUIRED',
    AWS_RESPONSE_CHECKSUM_VALIDATION: 'WHEN_REQUIRED',
  };
}
