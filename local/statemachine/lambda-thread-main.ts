import { parentPort, workerData } from 'node:worker_threads';
import { functionDeps } from '../../functions/deps.js';
import { FUNCTIONS, type FunctionTask } from '../../functions/registry.js';
import { ResourceDefinitionError } from '../stack/errors.js';

/**
 * One warm "container" of a local Lambda function: a worker thread whose heap is capped at
 * the function's memory size (lambda-pool.ts), building its dependencies from the
 * environment once, as the deployed handler does, then serving one invocation at a time.
 */
const port = parentPort!;
const data = workerData as { fn: string; env?: NodeJS.ProcessEnv; countRequests: boolean };
// Each container loads its own function's code only (functions/registry.ts).
const load = (FUNCTIONS as Record<string, { container?: () => Promise<FunctionTask> }>)[data.fn]?.container;
if (!load) throw new ResourceDefinitionError(`no local function ${data.fn}`);
// The code first: a pool started before its stack sends the environment once the stack is up.
const makeTask = await load();
const stackEnv =
  data.env ??
  (await new Promise<NodeJS.ProcessEnv>((resolve) =>
    port.once('message', (m: { env: NodeJS.ProcessEnv }) => resolve(m.env)),
  ));
// The function's own key id (its role's identity: local/iam), from the keys of all of them.
const { GEOHUB_LOCAL_FUNCTION_KEYS: keys, ...env } = stackEnv;
if (keys) env.GEOHUB_LOCAL_ACCESS_KEY_ID = (JSON.parse(keys) as Record<string, string>)[data.fn];
const deps = functionDeps(
  env,
  data.countRequests ? (service, command) => port.postMessage({ request: [service, command] }) : undefined,
);
const task = makeTask(deps);

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
