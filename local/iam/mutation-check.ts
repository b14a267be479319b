import { type Authorizer, createAuthorizer, type Principal } from './authorizer.js';
import type { RecordedRequest } from './record-requests.js';

/** Why a statement that no local run exercises is still needed on AWS (no local stand-in calls it). */
export const NEEDS_SHOWN: readonly { readonly actions: RegExp; readonly why: string }[] = [
  {
    actions: /^logs:(CreateLogStream|PutLogEvents)$/,
    why: 'Lambda and ECS write the logs under the role (execution role); the local stack has no CloudWatch Logs',
  },
  {
    actions:
      /^(logs:\w+Deliver\w*|logs:(PutResourcePolicy|DescribeResourcePolicies|DescribeLogGroups)|xray:\w+)$/,
    why: "Step Functions' execution logging and X-Ray tracing (loggingConfig, tracingConfig of the state machine)",
  },
  { actions: /^ecr:\w+$/, why: 'ECS pulls the worker image under the task execution role' },
  {
    actions: /^ecs:(DescribeServices|UpdateService)$/,
    why: 'the capacity function reads and sets the worker service (lib/capacity/ecs-capacity-target.ts); ECS has no local stand-in',
  },
];

export interface StatementVerdict {
  readonly principal: string;
  readonly index: number;
  readonly statement: Readonly<Record<string, unknown>>;
  /** The recorded requests that this statement alone allowed: removing it denies them. */
  readonly neededBy: readonly RecordedRequest[];
  /** Why it is needed although no local run calls it. */
  readonly shown?: string;
}

const actionsOf = (s: Readonly<Record<string, unknown>>) => [s.Action ?? []].flat() as string[];

/**
 * Removes each Allow statement of each principal's policy in turn and asks the evaluator which
 * of the requests the principal made in real runs are then denied: a statement that denies
 * none is not needed by any test (unless its need is shown: NEEDS_SHOWN).
 */
export async function mutationCheck(
  principals: readonly Principal[],
  recorded: readonly RecordedRequest[],
  account: string,
): Promise<StatementVerdict[]> {
  const verdicts: StatementVerdict[] = [];
  for (const principal of principals) {
    // Only what the template's own policy allows is evidence: a test that grants its identity
    // more (its own data, as an operator's policy would) made requests every removal "denies".
    const whole = createAuthorizer([principal], account);
    const made: RecordedRequest[] = [];
    for (const request of recorded.filter((r) => r.principal === principal.name)) {
      if ((await whole.authorize(principal.name, [request])).allowed) made.push(request);
    }
    for (const [index, statement] of principal.statements.entries()) {
      if (statement.Effect !== 'Allow') continue;
      const without: Authorizer = createAuthorizer(
        [{ ...principal, statements: principal.statements.filter((_, i) => i !== index) }],
        account,
      );
      const neededBy: RecordedRequest[] = [];
      for (const request of made) {
        const decision = await without.authorize(principal.name, [request]);
        if (!decision.allowed) neededBy.push(request);
      }
      const shown = actionsOf(statement).every((a) => NEEDS_SHOWN.some((n) => n.actions.test(a)))
        ? NEEDS_SHOWN.find((n) => actionsOf(statement).some((a) => n.actions.test(a)))?.why
        : undefined;
      verdicts.push({ principal: principal.name, index, statement, neededBy, ...(shown ? { shown } : {}) });
    }
  }
  return verdicts;
}
