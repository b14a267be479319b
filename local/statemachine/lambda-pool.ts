import { Worker } from 'node:worker_threads';
import { GeohubError } from '../../lib/errors/geohub-error.js';
import { bundledEntry } from '../bundled-entry.js';
import { ResourceDefinitionError } from '../stack/errors.js';
import { LambdaPoolStoppedError } from './errors.js';
import type { LambdaLimits } from './lambda-limits.js';

/** How a local invocation ended when AWS would have ended it: the error names Lambda reports. */
export class LambdaLimitError extends GeohubError {
  override readonly name: 'Sandbox.Timedout' | 'Runtime.OutOfMemory';

  constructor(name: 'Sandbox.Timedout' | 'Runtime.OutOfMemory', message: string) {
    super(message);
    // Step Functions matches Retry and Catch on the error's name, as AWS reports it.
    this.name = name;
  }
}

export interface LambdaPoolOptions {
  /**
   * The environment each function's thread parses its configuration from (as a Lambda does).
   * While a promise of it is pending, containers start and load their code, then wait for it.
   */
  readonly env: Readonly<Record<string, string>> | Promise<Readonly<Record<string, string>>>;
  /** Function (handler module) → its memory size and timeout. */
  readonly limits: Readonly<Record<string, LambdaLimits>>;
  readonly onRequest?: (service: string, command: string) => void;
}

export interface LambdaPool {
  invoke(fn: string, event: unknown): Promise<unknown>;
  /**
   * Starts one container of each of these functions (default: all) ahead of its first invocation
   * (provisioned concurrency); the others start cold on their first invocation, as on Lambda.
   * Resolves once they are up; an invocation meanwhile waits for its function's container.
   */
  prewarm(functions?: readonly string[]): Promise<void>;
  stop(): Promise<void>;
}

interface Container {
  readonly worker: Worker;
  readonly ready: Promise<void>;
  dead: boolean;
}

// Under vitest or tsx the sources are TypeScript: the thread registers tsx before loading them.
const ENTRY = bundledEntry(
  new URL(
    import.meta.url.endsWith('.ts') ? './lambda-thread-main.ts' : './lambda-thread-main.js',
    import.meta.url,
  ),
  new URL('../../lambda-bundle/lambda-thread-main.js', import.meta.url),
);

/**
 * Local Lambda functions run as AWS runs them (docs/architecture.md, "Local stack"): each
 * invocation in a warm container — a worker thread whose V8 heap is capped at the function's
 * memory size — and cut off at its timeout. A task that would run out of memory or time on
 * AWS fails here too, with AWS's error name; the container is then replaced, as Lambda does.
 * Concurrent invocations of one function get containers of their own.
 */
export function createLambdaPool(options: LambdaPoolOptions): LambdaPool {
  const idle = new Map<string, Container[]>();
  const all = new Set<Container>();
  let stopped = false;

  let env = options.env instanceof Promise ? undefined : options.env;
  const pendingEnv = options.env instanceof Promise ? options.env.then((e) => (env = e)) : undefined;
  pendingEnv?.catch(() => {}); // the pool's owner stops it if the environment never comes

  const spawn = (fn: string, limits: LambdaLimits): Container => {
    const workerData = { fn, env, countRequests: options.onRequest !== undefined };
    const resourceLimits = { maxOldGenerationSizeMb: limits.memoryMiB };
    const worker = ENTRY.pathname.endsWith('.ts')
      ? new Worker(
          `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(ENTRY.href)}); })`,
          { eval: true, workerData, resourceLimits },
        )
      : new Worker(ENTRY, { workerData, resourceLimits });
    const container: Container = {
      worker,
      dead: false,
      ready: new Promise((resolve, reject) => {
        worker.once('error', reject);
        worker.once('exit', () => reject(new Error(`the ${fn} function's container exited at start`)));
        worker.on('message', (m: { ready?: boolean; request?: [string, string] }) => {
          if (m.ready) resolve();
          if (m.request) options.onRequest?.(...m.request);
        });
      }),
    };
    // An idle container that fails is only marked: the next invocation gets a fresh one.
    worker.on('error', () => {
      container.dead = true;
    });
    worker.on('exit', () => {
      container.dead = true;
      all.delete(container);
    });
    // Its thread waits for the environment as its first message (lambda-thread-main.ts).
    if (!env)
      void pendingEnv?.then(
        (e) => container.dead || worker.postMessage({ env: e }),
        () => {},
      );
    all.add(container);
    return container;
  };

  const call = (container: Container, event: unknown, fn: string, limits: LambdaLimits) =>
    new Promise<unknown>((resolve, reject) => {
      const id = Math.random();
      const settle = (outcome: () => void) => {
        clearTimeout(timer);
        container.worker.off('message', onMessage);
        container.worker.off('error', onError);
        container.worker.off('exit', onExit);
        outcome();
      };
      const onMessage = (m: {
        id?: number;
        ok?: boolean;
        result?: unknown;
        error?: { name: string; message: string };
      }) => {
        if (m.id !== id) return;
        settle(() => {
          if (m.ok) resolve(m.result);
          else reject(Object.assign(new Error(m.error?.message), { name: m.error?.name ?? 'Error' }));
        });
      };
      const onError = (error: Error & { code?: string }) =>
        settle(() =>
          reject(
            error.code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? new LambdaLimitError(
                  'Runtime.OutOfMemory',
                  `${fn} ran out of its ${limits.memoryMiB} MB of memory (Runtime exited: out of memory)`,
                )
              : error,
          ),
        );
      // A container that goes away mid-invocation (the pool stopped, the thread died) ends the
      // invocation at once: otherwise its promise, and its timer of up to 15 minutes, outlive
      // the pool and keep `geohub up` alive after Ctrl-C.
      const onExit = () =>
        settle(() => reject(new Error(`the ${fn} function's container exited during an invocation`)));
      const timer = setTimeout(
        () =>
          settle(() => {
            void container.worker.terminate();
            reject(
              new LambdaLimitError(
                'Sandbox.Timedout',
                `Task timed out after ${limits.timeoutSeconds.toFixed(2)} seconds`,
              ),
            );
          }),
        limits.timeoutSeconds * 1000,
      );
      container.worker.on('message', onMessage);
      container.worker.once('error', onError);
      container.worker.once('exit', onExit);
      container.worker.postMessage({ id, event });
    });

  return {
    async invoke(fn, event) {
      const limits = options.limits[fn];
      if (!limits) throw new ResourceDefinitionError(`no limits for the ${fn} function in serverless.yml`);
      // A task still on its way when the hub stops (the progress check waits before it invokes,
      // local-hub.ts) starts no container: its thread would keep the process from exiting.
      if (stopped)
        throw new LambdaPoolStoppedError(`the local Lambda pool is stopped: ${fn} was not invoked`);
      const pool = idle.get(fn) ?? [];
      idle.set(fn, pool);
      let container = pool.pop();
      while (container?.dead) container = pool.pop();
      container ??= spawn(fn, limits);
      // Start-up (init) is not the invocation's time, as on Lambda; running out of memory in it is.
      await container.ready.catch((error: Error & { code?: string }) => {
        if (error.code !== 'ERR_WORKER_OUT_OF_MEMORY') throw error;
        throw new LambdaLimitError(
          'Runtime.OutOfMemory',
          `${fn} ran out of its ${limits.memoryMiB} MB of memory at start (Runtime exited: out of memory)`,
        );
      });
      const result = await call(container, event, fn, limits);
      if (!container.dead) pool.push(container);
      return result;
    },
    async prewarm(functions) {
      // A prewarm that comes after the stop starts nothing: no thread left to keep the process up.
      if (stopped) return;
      await Promise.all(
        Object.entries(options.limits)
          .filter(([fn]) => functions === undefined || functions.includes(fn))
          .map(async ([fn, limits]) => {
            // In the pool while it starts: an invocation that comes meanwhile waits for this
            // container instead of starting a second one beside it.
            const container = spawn(fn, limits);
            const pool = idle.get(fn) ?? [];
            idle.set(fn, pool);
            pool.push(container);
            await container.ready.catch(() => {}); // a container that fails is dead: never taken
          }),
      );
    },
    async stop() {
      stopped = true;
      idle.clear();
      await Promise.all([...all].map((c) => c.worker.terminate()));
    },
  };
}
