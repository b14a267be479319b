import type { ExecutionStarter } from '../../lib/executions/execution-starter.js';
import { retryingStarter } from '../../lib/executions/retrying-starter.js';
import type { FaultRates } from '../faults/fault-rates.js';
import { seededRandom } from '../faults/seeded-random.js';
import { StackStartError } from '../stack/errors.js';
import { bestEffortDelivery, type EventDelivery } from '../statemachine/event-delivery.js';
import { withLambdaFaults } from '../statemachine/lambda-faults.js';
import type { ExecutionStatusEvent, LocalExecutions } from '../statemachine/local-executions.js';
import { withStartThrottling } from '../statemachine/start-throttling.js';

type Handler = (input: unknown) => Promise<unknown>;

export interface ServiceBehaviour {
  /** StartExecution as the Lambdas call it: refused at a rate, tried again (retrying-starter.ts). */
  readonly starter: ExecutionStarter;
  /** The EventBridge rule's delivery of execution-status events: late or lost at a rate. */
  readonly events: EventDelivery;
  /** The task handlers as Step Functions invokes them: Lambda service errors at a rate. */
  handlers(handlers: Readonly<Record<string, Handler>>): Record<string, Handler>;
  /** Runs the starter on the executions once they exist (they take the handlers first). */
  attach(executions: LocalExecutions): void;
  /** What was injected, by kind. */
  counts(): Readonly<Record<string, number>>;
}

/**
 * The AWS-behaviour layer's share that no proxy sees (docs/architecture.md, "Local stack"):
 * Step Functions' Lambda invocations, StartExecution, and EventBridge's delivery. Without
 * rates, each is AWS on a good day.
 */
export function serviceBehaviour(
  rates: FaultRates | undefined,
  onStatus: (event: ExecutionStatusEvent) => Promise<void>,
): ServiceBehaviour {
  const injected: Record<string, number> = {};
  const tally = (kind: string) => {
    injected[kind] = (injected[kind] ?? 0) + 1;
  };
  // A stream each, so that one behaviour's draws do not shift another's: a seed replays each.
  const random = (k: number) => seededRandom((rates?.seed ?? 0) * 3 + 101 + k);
  let executions: LocalExecutions | undefined;
  const runner = (): LocalExecutions => {
    if (!executions) throw new StackStartError('the local executions are not attached yet');
    return executions;
  };
  const local: ExecutionStarter = {
    arnFor: (name) => runner().arnFor(name),
    start: (name, input) => runner().start(name, input),
    statusOf: (arn) => runner().statusOf!(arn),
  };
  return {
    starter: retryingStarter(withStartThrottling(local, rates?.sfn.startThrottle ?? 0, random(0), tally)),
    events: bestEffortDelivery(onStatus, rates?.events ?? { lost: 0, late: 0, lateMs: 0 }, random(1), tally),
    handlers: (handlers) => withLambdaFaults(handlers, rates?.lambda.serviceError ?? 0, random(2), tally),
    attach(e) {
      executions = e;
    },
    counts: () => ({ ...injected }),
  };
}
