/**
 * Step Functions' invocation of a task Lambda failing with one of Lambda's transient service
 * errors, as the state machine sees it (the error's name is what its Retry matches; AWS docs,
 * "Handle Lambda service exceptions"). Two are refused before the function runs; two lose the
 * answer of a function that did run, so a task must be safe to run again.
 */
const BEFORE = ['Lambda.ServiceException', 'Lambda.TooManyRequestsException'] as const;
const AFTER = ['Lambda.SdkClientException', 'Lambda.ClientExecutionTimeoutException'] as const;
export const LAMBDA_SERVICE_ERRORS = [...BEFORE, ...AFTER] as const;

/** The error as Step Functions reports it: only its name reaches Retry and Catch. */
function lambdaServiceFault(name: string): Error {
  const error = new Error(`${name} (injected by the local stack's AWS-behaviour layer)`);
  error.name = name;
  return error;
}

type Handler = (input: unknown) => Promise<unknown>;

/** Wraps every task's handler: at `rate` per invocation, one of the four errors, in turn. */
export function withLambdaFaults(
  handlers: Readonly<Record<string, Handler>>,
  rate: number,
  random: () => number,
  onInjected: (name: string) => void = () => {},
): Record<string, Handler> {
  if (rate <= 0) return { ...handlers };
  // In turn, not drawn: any four faults a run meets are one of each.
  let injected = 0;
  const wrap =
    (handler: Handler): Handler =>
    async (input) => {
      if (random() >= rate) return handler(input);
      const name = LAMBDA_SERVICE_ERRORS[injected++ % LAMBDA_SERVICE_ERRORS.length]!;
      onInjected(name);
      if ((AFTER as readonly string[]).includes(name)) await handler(input);
      throw lambdaServiceFault(name);
    };
  return Object.fromEntries(Object.entries(handlers).map(([state, h]) => [state, wrap(h)]));
}
