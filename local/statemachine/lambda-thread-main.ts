import { parentPort, workerData } from 'node:worker_threads';
import { checkProgressTask } from '../../functions/check-progress.js';
import { functionDeps } from '../../functions/deps.js';
import { drainTask } from '../../functions/drain.js';
import { enqueueTask } from '../../functions/enqueue.js';
import { finalizeTask } from '../../functions/finalize.js';
import { markFailedTask } from '../../functions/mark-failed.js';
import { splitTask } from '../../functions/split.js';

/**
 * One warm "container" of a local Lambda function: a worker thread whose heap is capped at
 * the function's memory size (lambda-pool.ts), building its dependencies from the
 * environment once, as the deployed handler does, then serving one invocation at a time.
 */
const tasks = {
  split: splitTask,
  enqueue: enqueueTask,
  'check-progress': checkProgressTask,
  drain: drainTask,
  finalize: finalizeTask,
  'mark-failed': markFailedTask,
} as const;

const port = parentPort!;
const { fn, env, countRequests } = workerData as {
  fn: keyof typeof tasks;
  env: NodeJS.ProcessEnv;
  countRequests: boolean;
};
const deps = functionDeps(
  env,
  countRequests ? (service, command) => port.postMessage({ request: [service, command] }) : undefined,
);
const task = tasks[fn](deps);

port.on('message', async ({ id, event }: { id: number; event: unknown }) => {
  try {
    port.postMessage({ id, ok: true, result: await task(event) });
  } catch (error) {
    const e = error as { name?: string; message?: string };
    port.postMessage({
      id,
      ok: false,
      error: { name: e.name ?? 'Error', message: e.message ?? String(error) },
    });
  }
});
port.postMessage({ ready: true });
