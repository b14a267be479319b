import { runSimulation } from '@cloud-copilot/iam-simulate';
import type { Need } from './api-call.js';
import { decisionClasses } from './decision-class.js';
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
  /**
   * What the runs needed (the mutation check): one (principal, action, resource) of each class
   * of needs allowed so far, and the last few thousand allowed as they were.
   */
  allowed(): readonly Granted[];
  /** The last few thousand (principal, action, resource) refused. */
  denied(): readonly Granted[];
}

/**
 * Decides, per need, whether a principal's identity policy allows it, with the maintained
 * evaluator @cloud-copilot/iam-simulate (explicit deny, implicit deny, wildcards, conditions as
 * IAM evaluates them). A call is allowed only if every one of its needs is. Decisions are
 * kept, one per class of needs (decision-class.ts): policies do not change while a stack runs,
 * and a run repeats the same few, whatever the number of tiles it writes.
 */
export function createAuthorizer(principals: readonly Principal[], account: string): Authorizer {
  const byName = new Map(principals.map((p) => [p.name, p]));
  const classOf = new Map(principals.map((p) => [p.name, decisionClasses(p.statements)]));
  const decided = new Map<string, Promise<boolean>>();
  // The first need of each class (what the mutation check replays: it stands for its class),
  // and the last ones decided, as they were: both bounded, however long the stack runs.
  const seen = new Map<string, Granted>();
  const recent = new Map<string, Granted>();
  const refused = new Map<string, Granted>();

  const decide = (principal: Principal, need: Need): Promise<boolean> => {
    const key = `${principal.name}|${classOf.get(principal.name)?.(need)}`;
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
      const granted = { principal: principal.name, action: need.action, resource: need.resource };
      if (!seen.has(key) && allowed) seen.set(key, granted);
      keepLast(allowed ? recent : refused, `${principal.name}|${need.action}|${need.resource}`, granted);
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
    allowed: () => [...new Map([...seen.values(), ...recent.values()].map((g) => [grantKey(g), g])).values()],
    denied: () => [...refused.values()],
  };
}

export interface Granted {
  readonly principal: string;
  readonly action: string;
  readonly resource: string;
}

/** How many exact needs are kept beside one per class: enough for a test to find its own. */
const KEPT = 4096;

const grantKey = (g: Granted) => `${g.principal}|${g.action}|${g.resource}`;

function keepLast(map: Map<string, Granted>, key: string, granted: Granted): void {
  map.delete(key);
  map.set(key, granted);
  if (map.size > KEPT) map.delete(map.keys().next().value as string);
}
