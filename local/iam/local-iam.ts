import { createHmac } from 'node:crypto';
import { needsOf } from './action-table.js';
import type { ApiCall, Need } from './api-call.js';
import { type ArnScope, arnBuilder, loadArnTemplates } from './arn-templates.js';
import { type Authorizer, createAuthorizer, type Principal } from './authorizer.js';
import { PolicySourceError } from './errors.js';
import { resolveIntrinsics } from './intrinsics.js';
import { pseudoParameters, templateResourceValues } from './local-resources.js';
import { operatorStatements } from './operator-policy.js';
import type { PackageVariables } from './serverless-variables.js';
import { templateRoles } from './template-roles.js';

/** The principal of the CLI and the page. */
export const OPERATOR = 'operator';

export interface LocalIam {
  readonly principals: readonly Principal[];
  readonly authorizer: Authorizer;
  /** The access key id a principal's requests carry (the stack's secret signs them all). */
  keyFor(principal: string): string;
  /** Who a request's key id names; undefined for a key of no principal. */
  principalOf(keyId: string): string | undefined;
  /** Each IAM action the call needs, on its ARN (the action table). */
  needs(call: ApiCall): Need[];
  arnOf(principal: string): string;
  /** The ARN of a function, by handler file (what the state machine's role must be allowed to invoke). */
  functionArn(file: string): string;
}

export interface LocalIamOptions {
  readonly document: unknown;
  readonly vars: PackageVariables;
  readonly scope: ArnScope;
  /** The stack's per-start secret: each principal's key id is derived from it. */
  readonly secret: string;
}

/**
 * The local stack's IAM: every role of the template, resolved to the local resources, each
 * principal with a key id of its own, and the evaluator that decides their calls.
 */
export async function createLocalIam(options: LocalIamOptions): Promise<LocalIam> {
  const { scope } = options;
  const pseudo = pseudoParameters(scope, options.vars);
  const values = templateResourceValues(options.document, options.vars, scope);
  const resolve = (statements: readonly unknown[]) =>
    resolveIntrinsics(statements, values, pseudo) as Record<string, unknown>[];
  const principals: Principal[] = [
    ...templateRoles(options.document, options.vars).flatMap((role) =>
      role.principals.map((name) => ({
        name,
        arn: `arn:${scope.partition}:sts::${scope.account}:assumed-role/${role.logicalId}/${name}`,
        statements: resolve(role.policies.flatMap((p) => p.PolicyDocument.Statement)),
      })),
    ),
    {
      name: OPERATOR,
      arn: `arn:${scope.partition}:iam::${scope.account}:user/${OPERATOR}`,
      statements: resolve(operatorStatements(options.document, options.vars)),
    },
  ];
  const keys = new Map(
    principals.map((p) => [
      p.name,
      `GH${createHmac('sha256', options.secret).update(p.name).digest('hex').slice(0, 24).toUpperCase()}`,
    ]),
  );
  const byKey = new Map([...keys].map(([name, key]) => [key, name]));
  const arn = arnBuilder(await loadArnTemplates(), scope);
  const functionName = (file: string) => {
    const entry = Object.entries(
      (options.document as { functions?: Record<string, { handler?: string }> }).functions ?? {},
    ).find(([, fn]) => fn.handler === `functions/${file}.handler`);
    if (!entry) throw new PolicySourceError(`no function for functions/${file}.ts`);
    return values(`${entry[0].charAt(0).toUpperCase()}${entry[0].slice(1)}LambdaFunction`, 'Arn');
  };
  return {
    principals,
    authorizer: createAuthorizer(principals, scope.account),
    keyFor: (name) => {
      const key = keys.get(name);
      if (!key) throw new PolicySourceError(`no local principal ${name}`);
      return key;
    },
    principalOf: (keyId) => byKey.get(keyId),
    needs: (call) => needsOf(call, arn),
    arnOf: (name) => principals.find((p) => p.name === name)?.arn ?? name,
    functionArn: functionName,
  };
}
