import type { ExecutionStarter } from '../../lib/executions/execution-starter.js';
import type { RequestOptions } from '../../lib/store/object-store.js';
import { denialMessage } from './access-denied.js';
import type { ApiCall } from './api-call.js';
import { LocalAccessDeniedError } from './errors.js';
import type { LocalIam } from './local-iam.js';

/**
 * The calls that never leave the process locally (Step Functions is the in-process runner,
 * Lambda the in-process pool) checked as AWS checks them: a refused call throws
 * AccessDeniedException, as the SDK would.
 */
export async function requireAllowed(iam: LocalIam, principal: string, call: ApiCall): Promise<void> {
  const decision = await iam.authorizer.authorize(principal, iam.needs(call));
  if (!decision.allowed)
    throw new LocalAccessDeniedError(denialMessage(iam.arnOf(principal), decision.denied!));
}

/** A starter that acts as `principal`: StartExecution and DescribeExecution authorised first. */
export function guardedStarter<S extends ExecutionStarter>(
  starter: S,
  iam: LocalIam | undefined,
  principal: string,
  stateMachineArn: string,
): ExecutionStarter {
  if (!iam) return starter;
  return {
    arnFor: (name) => starter.arnFor(name),
    async start(name, input, options) {
      await requireAllowed(iam, principal, {
        service: 'states',
        operation: 'StartExecution',
        params: { stateMachineArn },
      });
      return starter.start(name, input, options);
    },
    ...(starter.statusOf
      ? {
          async statusOf(executionArn: string, options?: RequestOptions) {
            await requireAllowed(iam, principal, {
              service: 'states',
              operation: 'DescribeExecution',
              params: { executionArn },
            });
            return starter.statusOf!(executionArn, options);
          },
        }
      : {}),
  };
}

/**
 * A function that its caller must be allowed to invoke (lambda:InvokeFunction on its ARN): the
 * state machine's role for its tasks, the operator for `geohub redrive`.
 */
export function guardedInvoke<E, R>(
  iam: LocalIam | undefined,
  caller: string,
  file: string,
  fn: (event: E) => Promise<R>,
): (event: E) => Promise<R> {
  if (!iam) return fn;
  const FunctionName = iam.functionArn(file);
  return async (event) => {
    await requireAllowed(iam, caller, { service: 'lambda', operation: 'Invoke', params: { FunctionName } });
    return fn(event);
  };
}

/**
 * Executions whose Stop button acts as `principal` (the operator: `geohub cancel`, the page, a
 * Ctrl-C of `geohub run`): states:StopExecution on the execution's ARN, authorised first.
 */
export function guardedStop<E extends { stop(executionArn: string): Promise<void> }>(
  executions: E,
  iam: LocalIam | undefined,
  principal: string,
): E {
  if (!iam) return executions;
  return {
    ...executions,
    async stop(executionArn: string) {
      await requireAllowed(iam, principal, {
        service: 'states',
        operation: 'StopExecution',
        params: { executionArn },
      });
      return executions.stop(executionArn);
    },
  };
}
