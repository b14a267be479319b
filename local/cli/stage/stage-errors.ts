import { CliError } from '../cli-error.js';

/** IAM's wording of a refusal, as every service puts it in its message. */
const DENIED = /not authorized to perform: (\S+) on resource: (\S+)/;

/**
 * An AWS failure of a `--stage` command in one line that names what is missing: credentials,
 * the stack, or the permission (the action and the resource, from IAM's own message).
 */
export function stageError(error: unknown, stage: string, region: string): CliError | unknown {
  if (error instanceof CliError) return error;
  const e = error as Error & { Code?: string; $metadata?: { httpStatusCode?: number } };
  const message = e?.message ?? String(error);
  const denied = DENIED.exec(message);
  if (denied?.[1] === 'cloudformation:DescribeStacks') {
    // IAM answers before CloudFormation looks: a stack that does not exist is refused the same way.
    return new CliError(
      `stage ${stage}: you may not read the stack geohub-${stage} in ${region} (missing permission cloudformation:DescribeStacks on ${denied[2]}): check --stage and --region; if they are right, attach the stack's operator policy to your identity`,
      1,
      { cause: error },
    );
  }
  if (denied) {
    return new CliError(
      `stage ${stage}: missing permission ${denied[1]} on ${denied[2]}: attach the stack's operator policy (its output OperatorPolicyArn) to your identity`,
      1,
      { cause: error },
    );
  }
  if (/AccessDenied|Forbidden/.test(`${e?.name} ${e?.Code ?? ''}`)) {
    return new CliError(`stage ${stage}: access denied (${e.name}): ${message}`, 1, { cause: error });
  }
  if (e?.name === 'CredentialsProviderError' || /Could not load credentials/.test(message)) {
    return new CliError(
      'no AWS credentials: set AWS_PROFILE or --profile (after `aws sso login` or `aws configure`), or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY',
      1,
      { cause: error },
    );
  }
  if (/Stack with id .* does not exist/.test(message)) {
    return new CliError(
      `no stack geohub-${stage} in ${region}: check --stage and --region (or AWS_REGION), or deploy it (docs/deploy.md)`,
      1,
      { cause: error },
    );
  }
  if (/Region is missing|Region not accepted/.test(message)) {
    return new CliError('no AWS region: pass --region, or set AWS_REGION or a profile with a region', 1, {
      cause: error,
    });
  }
  if (e?.name === 'ExpiredTokenException' || /expired/i.test(`${e?.name}`)) {
    return new CliError(
      `stage ${stage}: your AWS credentials have expired: sign in again (aws sso login)`,
      1,
      {
        cause: error,
      },
    );
  }
  return error;
}
