import { guardedInvoke } from '../iam/guard-calls.js';
import type { LocalIam } from '../iam/local-iam.js';
import type { LambdaPool } from '../statemachine/lambda-pool.js';
import type { PrincipalDeps } from './principal-deps.js';

type Handler = (event: unknown) => Promise<unknown>;
type Task = (deps: PrincipalDeps) => Handler;

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
): Record<'Split' | 'Enqueue' | 'CheckProgress' | 'Drain' | 'Finalize' | 'MarkFailed', Handler> {
  const task = (fn: string, load: () => Promise<Task>): Handler => {
    if (lambdas)
      return guardedInvoke(iam, 'state-machine', fn, (event: unknown) => lambdas.invoke(fn, event));
    let local: Promise<Handler> | undefined;
    return guardedInvoke(iam, 'state-machine', fn, async (event: unknown) => {
      local ??= load().then((make) => make(as(fn)));
      return (await local)(event);
    });
  };
  return {
    Split: task('split', async () => (await import('../../functions/split.js')).splitTask as Task),
    Enqueue: task('enqueue', async () => (await import('../../functions/enqueue.js')).enqueueTask as Task),
    CheckProgress: task(
      'check-progress',
      async () => (await import('../../functions/check-progress.js')).checkProgressTask as Task,
    ),
    Drain: task('drain', async () => (await import('../../functions/drain.js')).drainTask as Task),
    Finalize: task(
      'finalize',
      async () => (await import('../../functions/finalize.js')).finalizeTask as Task,
    ),
    MarkFailed: task(
      'mark-failed',
      async () => (await import('../../functions/mark-failed.js')).markFailedTask as Task,
    ),
  };
}
