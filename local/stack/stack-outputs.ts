import type { ArnScope } from '../iam/arn-templates.js';
import { resolveIntrinsics } from '../iam/intrinsics.js';
import { pseudoParameters, templateResourceValues } from '../iam/local-resources.js';
import type { PackageVariables } from '../iam/serverless-variables.js';

interface Doc {
  resources?: { Outputs?: Record<string, { Value?: unknown }> };
}

/**
 * The stack's outputs (serverless.yml's `Outputs`) as CloudFormation would give them for a stack
 * of this scope and stage, resolved to the local resources: the same names, and the queues' URLs
 * where the local queues answer (`queueUrls`, by logical id), as a deployed stack's point at SQS.
 */
export function localStackOutputs(
  doc: unknown,
  vars: PackageVariables,
  scope: ArnScope,
  queueUrls: Readonly<Record<string, string>>,
): Record<string, string> {
  const values = templateResourceValues(doc, vars, scope);
  const local = (logicalId: string, attribute?: string) =>
    attribute === undefined && queueUrls[logicalId] ? queueUrls[logicalId] : values(logicalId, attribute);
  const pseudo = pseudoParameters(scope, vars);
  return Object.fromEntries(
    Object.entries((doc as Doc).resources?.Outputs ?? {}).map(([key, output]) => [
      key,
      String(resolveIntrinsics(output.Value, local, pseudo)),
    ]),
  );
}
