import type { Command } from 'commander';
import { portOf } from '../api-client.js';
import { CliError } from '../cli-error.js';
import { type CliIo, intOption } from '../io.js';
import type { Operator } from './operator.js';
import { upOperator } from './up-operator.js';

/** Where a control command acts: the user's `geohub up` (--port), or a deployed stage (--stage). */
export interface TargetOptions {
  readonly port?: number;
  readonly stage?: string;
  readonly region?: string;
  readonly profile?: string;
}

/** The options that choose the target, the same on every control command. */
export function targetOptions(command: Command): Command {
  return command
    .option(
      '--port <p>',
      'port of your running `geohub up` (default 4747, or GEOHUB_PORT)',
      intOption(1, 65_535),
    )
    .option(
      '--stage <name>',
      'a deployed stage instead (or GEOHUB_STAGE): found from its CloudFormation stack',
    )
    .option('--region <region>', "the stage's region (default: AWS_REGION, or the profile's)")
    .option(
      '--profile <name>',
      'the AWS profile to use with --stage (default: AWS_PROFILE, then the SDK chain)',
    );
}

/**
 * The target's operator. A stage's AWS SDK clients load only when a stage is named: a command on
 * a local `geohub up` does not pay for them.
 */
export async function operatorOf(io: CliIo, opts: TargetOptions): Promise<Operator> {
  const stage = opts.stage ?? (io.env.GEOHUB_STAGE || undefined);
  if (!stage) {
    if (opts.region || opts.profile) throw new CliError('--region and --profile go with --stage <name>');
    return upOperator(portOf(io.env, opts.port), io.env);
  }
  if (opts.port !== undefined) throw new CliError('--port and --stage name two targets: choose one');
  const [{ discoverStage }, { stageOperator }, { stageServices }] = await Promise.all([
    import('../stage/discover-stage.js'),
    import('../stage/stage-operator.js'),
    import('../stage/stage-services.js'),
  ]);
  const target = await discoverStage({ stage, region: opts.region, profile: opts.profile }, io.env);
  return stageOperator(stageServices(target));
}

/** Runs `fn` with the target's operator, closed on every path. */
export async function withOperator<T>(
  io: CliIo,
  opts: TargetOptions,
  fn: (op: Operator) => Promise<T>,
): Promise<T> {
  const op = await operatorOf(io, opts);
  try {
    return await fn(op);
  } finally {
    op.close();
  }
}
