import type { FunctionDeps } from '../../functions/deps.js';
import {
  CONTAINER_FUNCTIONS,
  type ContainerState,
  FUNCTIONS,
  type FunctionTask,
} from '../../functions/registry.js';
import { markPhase } from '../../lib/log/phase-marks.js';
import { guardedInvoke } from '../iam/guard-calls.js';
import type { LocalIam } from '../iam/local-iam.js';
import type { LambdaPool } from '../statemachine/lambda-pool.js';
import type { PrincipalDeps } from './principal-deps.js';

type Handler = (event: unknown) => Promise<unknown>;

/**
 * The state machine's Lambda tasks: in their containers (the pool), or without containers in
 * this process under the function's own identity, its code loaded when first called (with
 * containers this process never loads it: the split's and the finalize's EPSG registry is 8 MB
 * of JSON). Either way the state machine's role must be allowed to invoke the function.
 */
export function taskHandlers(
  lambdas: LambdaPool | undefined,
  iam: LocalIam | undefined,
  as: (principal: string) => PrincipalDeps,
): Record<ContainerState, Handler> {
  const task = (fn: string, load: () => Promise<FunctionTask>): Handler => profiled(fn, taskOf(fn, load));
  const taskOf = (fn: string, load: () => Promise<FunctionTask>): Handler => {
    if (lambdas)
      return guardedInvoke(iam, 'state-machine', fn, (event: unknown) => lambdas.invoke(fn, event));
    let local: Promise<Handler> | undefined;
    return guardedInvoke(iam, 'state-machine', fn, async (event: unknown) => {
      // The hub's principal deps lack only the starter, which no container task uses.
      local ??= load().then((make) => make(as(fn) as FunctionDeps));
      return (await local)(event);
    });
  };
  return Object.fromEntries(
    CONTAINER_FUNCTIONS.map((fn) => [FUNCTIONS[fn].state, task(fn, FUNCTIONS[fn].container)]),
  ) as Record<ContainerState, Handler>;
}

/** A step's start and end in the bench's start-up profile (lib/log/phase-marks.ts). */
const profiled =
  (fn: string, handler: Handler): Handler =>
  async (event: unknown) => {
    markPhase(`step ${fn}: start`);
    try {
      return await handler(event);
    } finally {
      markPhase(`step ${fn}: end`);
    }
  };
