import type { ExecutionStarter } from '../../lib/executions/execution-starter.js';

/** StartExecution's refusals, named as the SDK names them (Step Functions API reference). */
const REFUSALS = [
  ['ThrottlingException', 'Rate exceeded'],
  ['ExecutionLimitExceeded', 'The maximum number of running executions has been reached.'],
] as const;

/**
 * The local runner's StartExecution refused at `rate`, before anything starts, as Step
 * Functions refuses it over its rate or its running-executions quota.
 */
export function withStartThrottling(
  starter: ExecutionStarter,
  rate: number,
  random: () => number,
  onInjected: (name: string) => void = () => {},
): ExecutionStarter {
  if (rate <= 0) return starter;
  return {
    arnFor: (name) => starter.arnFor(name),
    ...(starter.statusOf ? { statusOf: (arn: string) => starter.statusOf!(arn) } : {}),
    start: async (name, input) => {
      if (random() < rate) {
        const [errorName, message] = REFUSALS[Math.floor(random() * REFUSALS.length)]!;
        onInjected(errorName);
        const error = new Error(message);
        error.name = errorName;
        throw error;
      }
      return starter.start(name, input);
    },
  };
}
