import { describe, expect, it } from 'vitest';
import { CliError } from '../../../../../local/cli/cli-error.js';
import { stageError } from '../../../../../local/cli/stage/stage-errors.js';

const named = (name: string, message: string) => Object.assign(new Error(message), { name });
const line = (error: unknown) => (stageError(error, 'dev', 'eu-west-1') as Error).message;

describe('an AWS failure of a --stage command, in one line naming what is missing', () => {
  it('names the permission from IAM’s own message', () => {
    const denied = named(
      'AccessDeniedException',
      'User: arn:aws:iam::1:user/op is not authorized to perform: states:StopExecution on resource: arn:aws:states:eu-west-1:1:execution:geohub-dev:r-1 because no identity-based policy allows the states:StopExecution action',
    );
    expect(line(denied)).toBe(
      "stage dev: missing permission states:StopExecution on arn:aws:states:eu-west-1:1:execution:geohub-dev:r-1: attach the stack's operator policy (its output OperatorPolicyArn) to your identity",
    );
  });

  it('says a stack refused by IAM may be a wrong name, since IAM answers before CloudFormation looks', () => {
    const denied = named(
      'AccessDenied',
      'User: x is not authorized to perform: cloudformation:DescribeStacks on resource: arn:aws:cloudformation:eu-west-1:1:stack/geohub-dev/*',
    );
    expect(line(denied)).toMatch(
      /^stage dev: you may not read the stack geohub-dev in eu-west-1 .*check --stage and --region/,
    );
  });

  it('names missing credentials, a missing stack, a missing region, expired credentials', () => {
    expect(line(named('CredentialsProviderError', 'Could not load credentials from any providers'))).toMatch(
      /^no AWS credentials: set AWS_PROFILE or --profile/,
    );
    expect(line(named('ValidationError', 'Stack with id geohub-dev does not exist'))).toBe(
      'no stack geohub-dev in eu-west-1: check --stage and --region (or AWS_REGION), or deploy it (docs/deploy.md)',
    );
    expect(line(new Error('Region is missing'))).toMatch(/^no AWS region/);
    expect(
      line(named('ExpiredTokenException', 'The security token included in the request is expired')),
    ).toMatch(/credentials have expired/);
  });

  it('keeps a CLI line as it is, and passes anything else on unchanged', () => {
    const cli = new CliError('no such run');
    expect(stageError(cli, 'dev', 'eu-west-1')).toBe(cli);
    const other = new Error('socket hang up');
    expect(stageError(other, 'dev', 'eu-west-1')).toBe(other);
  });
});
