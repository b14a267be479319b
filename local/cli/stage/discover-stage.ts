import { z } from 'zod';
import { readStackOutputs } from '../../../lib/aws/stack-outputs.js';
import { type Config, loadConfig } from '../../../lib/config/config.js';
import { zodProblems } from '../../../lib/model/zod-problems.js';
import { stackNameOf } from '../../iam/operator-policy.js';
import { CliError } from '../cli-error.js';
import { stageError } from './stage-errors.js';

/** The outputs every command needs (serverless.yml's `Outputs`). */
const outputsSchema = z.object({
  DataBucketName: z.string().min(1),
  LedgerTableName: z.string().min(1),
  WorkQueueUrl: z.string().min(1),
  DeadLetterQueueUrl: z.string().min(1),
  StateMachineArn: z.string().min(1),
  RedriveFunctionName: z.string().min(1),
});

export type StageOutputs = z.infer<typeof outputsSchema>;

export interface StageTarget {
  readonly stage: string;
  readonly region: string;
  readonly outputs: StageOutputs;
  /** The ledger, bucket and queues of the stage, reached with the operator's own credentials. */
  readonly config: Config;
}

export interface StageOptions {
  readonly stage: string;
  readonly region?: string;
  readonly profile?: string;
}

/** A stage name as serverless takes it (`--stage`): letters, digits and hyphens. */
export const stageSchema = z
  .string()
  .regex(/^[A-Za-z0-9-]{1,40}$/, 'a stage is 1 to 40 letters, digits or hyphens');

/**
 * Finds a deployed stage from its CloudFormation stack's outputs: no ARN typed by hand. The SDK's
 * own chain gives the credentials and the region (AWS_PROFILE, SSO, environment, instance role;
 * AWS_ENDPOINT_URL_<SERVICE> where a stand-in answers instead of AWS).
 */
export async function discoverStage(options: StageOptions, env: NodeJS.ProcessEnv): Promise<StageTarget> {
  const stage = stageSchema.safeParse(options.stage);
  if (!stage.success) throw new CliError(`--stage ${options.stage}: ${zodProblems(stage.error)}`);
  // The SDK reads its profile from the environment, as the AWS CLI's --profile sets it.
  if (options.profile) process.env.AWS_PROFILE = options.profile;
  const stackName = stackNameOf(stage.data);
  const found = await readStackOutputs(stackName, { region: options.region }).catch((error: unknown) => {
    throw stageError(error, stage.data, options.region ?? env.AWS_REGION ?? 'the default region');
  });
  const outputs = outputsSchema.safeParse(found.outputs);
  if (!outputs.success) {
    throw new CliError(
      `the stack ${stackName} in ${found.region} lacks outputs this CLI needs (${zodProblems(outputs.error)}): deploy this version of geohub (docs/deploy.md)`,
    );
  }
  const o = outputs.data;
  const config = loadConfig({
    GEOHUB_REGION: found.region,
    GEOHUB_BUCKET: o.DataBucketName,
    GEOHUB_TABLE: o.LedgerTableName,
    GEOHUB_QUEUE_URL: o.WorkQueueUrl,
    GEOHUB_DLQ_URL: o.DeadLetterQueueUrl,
    GEOHUB_STATE_MACHINE_ARN: o.StateMachineArn,
    // An S3-compatible stand-in named by the SDK's own override needs path-style requests.
    GEOHUB_S3_COMPATIBLE: env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL ? '1' : '0',
  });
  return { stage: stage.data, region: found.region, outputs: o, config };
}
