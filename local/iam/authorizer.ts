import { runSimulation } from '@cloud-copilot/iam-simulate';
import type { Need } from './api-call.js';
import { PolicySourceError } from './errors.js';

/** A principal of the local stack and the identity policy it acts under (intrinsics resolved). */
export interface Principal {
  readonly name: string;
  /** The role's ARN (or the operator's user ARN) the simulation names as the caller. */
  readonly arn: string;
  readonly statements: readonly Record<string, unknown>[];
}

export interface Decision {
  readonly allowed: boolean;
  /** The first need that was refused. */
  readonly denied?: Need;
}

export interface Authorizer {
  authorize(principal: string, needs: readonly Need[]): Promise<Decision>;
  /** Every (principal, action, resource) allowed so far: what the runs needed (the mutation check). */
  allowed(): readonly { principal: string; action: string; resource: string }[];
  /** Every (principal, action, resource) refused so far. */
  denied(): readonly { principal: string; action: string; resource: string }[];
}

/**
 * Decides, per need, whether a principal's identity policy allows it, with the maintained
 * evaluator @cloud-copilot/iam-simulate (explicit deny, implicit deny, wildcards, conditions as
 * IAM evaluates them). A call is allowed only if every one of its needs is. Decisions are
 * kept: policies do not change while a stack runs, and a run repeats the same few.
 */
export function createAuthorizer(principals: readonly Principal[], account: string): Authorizer {
  const byName = new Map(principals.map((p) => [p.name, p]));
  const decided = new Map<string, Promise<boolean>>();
  const seen = new Map<string, { principal: string; action: string; resource: string }>();
  const refused = new Map<string, { principal: string; action: string; resource: string }>();

  const decide = (principal: Principal, need: Need): Promise<boolean> => {
    const key = `${principal.name}|${need.action}|${need.resource}`;
    let decision = decided.get(key);
    if (!decision) {
      decision = runSimulation(
        {
          identityPolicies: [
            {
              name: principal.name,
              policy: { Version: '2012-10-17', Statement: principal.statements as never },
            },
          ],
          serviceControlPolicies: [],
          resourceControlPolicies: [],
          request: {
            action: need.action,
            principal: principal.arn,
            resource: { resource: need.resource, accountId: account },
            contextVariables: {},
          },
        },
        {},
      ).then((result) => {
        if (result.resultType === 'error')
          throw new PolicySourceError(`iam-simulate refused ${key}: ${JSON.stringify(result.errors)}`);
        return result.overallResult === 'Allowed';
      });
      decided.set(key, decision);
    }
    return decision.then((allowed) => {
      (allowed ? seen : refused).set(key, {
        principal: principal.name,
        action: need.action,
        resource: need.resource,
      });
      if (!allowed && process.env.GEOHUB_IAM_TRACE) process.stderr.write(`IAM denied ${key}\n`);
      return allowed;
    });
  };

  return {
    async authorize(name, needs) {
      const principal = byName.get(name);
      if (!principal) return { allowed: false, denied: needs[0] };
      if (needs.length === 0) return { allowed: true };
      const results = await Promise.all(needs.map((n) => decide(principal, n)));
      const at = results.indexOf(false);
      return at < 0 ? { allowed: true } : { allowed: false, denied: needs[at] };
    },
    allowed: () => [...seen.values()],
    denied: () => [...refused.values()],
  };
}
