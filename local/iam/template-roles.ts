import { PolicySourceError } from './errors.js';
import { type PackageVariables, resolveServerlessVariables } from './serverless-variables.js';

/** One IAM policy statement, as the template writes it (intrinsics unresolved). */
export type Statement = Readonly<Record<string, unknown>> & { readonly Effect: 'Allow' | 'Deny' };

/** The identities of the local stack: a function (its handler file), the workers, the state machine. */
export interface TemplateRole {
  readonly logicalId: string;
  /** The principals acting under it: handler files (`split`), `worker`, `state-machine`. */
  readonly principals: readonly string[];
  /** Its inline policies, serverless variables resolved as `npm run package` resolves them. */
  readonly policies: readonly { PolicyName: string; PolicyDocument: { Statement: Statement[] } }[];
}

interface Doc {
  functions?: Record<string, { handler?: string; role?: string }>;
  stepFunctions?: { stateMachines?: Record<string, { role?: unknown }> };
  resources?: { Resources?: Record<string, { Type: string; Properties?: Record<string, unknown> }> };
}

/** The role a principal's calls are checked against, by the logical id the template gives it. */
function principalsByRole(doc: Doc): Map<string, string[]> {
  const byRole = new Map<string, string[]>();
  const add = (role: string, principal: string) => byRole.set(role, [...(byRole.get(role) ?? []), principal]);
  for (const fn of Object.values(doc.functions ?? {})) {
    const file = /^functions\/(.+)\.handler$/.exec(fn.handler ?? '')?.[1];
    if (!file || !fn.role)
      throw new PolicySourceError(`a function without a handler file or role: ${fn.handler}`);
    add(fn.role, file);
  }
  for (const machine of Object.values(doc.stepFunctions?.stateMachines ?? {})) {
    const role = (machine.role as { 'Fn::GetAtt'?: [string, string] } | undefined)?.['Fn::GetAtt']?.[0];
    if (!role) throw new PolicySourceError('the state machine names no role of this template');
    add(role, 'state-machine');
  }
  // The task role of the workers' task definition.
  for (const r of Object.values(doc.resources?.Resources ?? {})) {
    if (r.Type !== 'AWS::ECS::TaskDefinition') continue;
    const role = (r.Properties?.TaskRoleArn as { 'Fn::GetAtt'?: [string, string] } | undefined)?.[
      'Fn::GetAtt'
    ]?.[0];
    if (role) add(role, 'worker');
  }
  return byRole;
}

/**
 * Every IAM role of serverless.yml with its inline policies, as the packaged template holds
 * them (test/unit/local/iam/template-roles.test.ts proves it against `npm run package`), and
 * the local principals that act under each.
 */
export function templateRoles(doc: unknown, vars: PackageVariables): TemplateRole[] {
  const d = doc as Doc;
  const principals = principalsByRole(d);
  return Object.entries(d.resources?.Resources ?? {})
    .filter(([, r]) => r.Type === 'AWS::IAM::Role')
    .map(([logicalId, r]) => ({
      logicalId,
      principals: principals.get(logicalId) ?? [],
      policies: resolveServerlessVariables(
        (r.Properties?.Policies ?? []) as TemplateRole['policies'],
        doc,
        vars,
      ),
    }));
}
