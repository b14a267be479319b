import { PolicySourceError } from './errors.js';
import { type PackageVariables, resolveServerlessVariables } from './serverless-variables.js';
import type { Statement } from './template-roles.js';

/** The operators' managed policy's logical id in serverless.yml (exported as `OperatorPolicyArn`). */
export const OPERATOR_POLICY = 'OperatorPolicy';

interface Doc {
  resources?: { Resources?: Record<string, { Type: string; Properties?: Record<string, unknown> }> };
}

/**
 * What an operator (the CLI and the page; a CI role) may do: the statements of the stack's own
 * managed policy, serverless variables resolved, intrinsics left to the caller. One list: the
 * deployed stack hands it to operators, and the local stack's operator calls under it.
 */
export function operatorStatements(doc: unknown, vars: PackageVariables): Statement[] {
  const policy = (doc as Doc).resources?.Resources?.[OPERATOR_POLICY];
  const statements = (policy?.Properties?.PolicyDocument as { Statement?: Statement[] } | undefined)
    ?.Statement;
  if (policy?.Type !== 'AWS::IAM::ManagedPolicy' || !Array.isArray(statements)) {
    throw new PolicySourceError(
      `no AWS::IAM::ManagedPolicy ${OPERATOR_POLICY} with statements in the template`,
    );
  }
  return resolveServerlessVariables(statements, doc, vars);
}

/** CloudFormation's `${AWS::StackName}` for a stage: serverless names the stack `<service>-<stage>`. */
export const stackNameOf = (stage: string) => `geohub-${stage}`;
