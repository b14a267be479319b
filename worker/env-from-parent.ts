/**
 * A local pool may start its workers before the stack they serve is up (local/pool/worker-pool.ts):
 * such a worker loads its code, then waits for its environment over the IPC channel under this
 * name, and only then reads its configuration. On ECS there is no channel and no such variable.
 */
export const ENV_FROM_PARENT = 'GEOHUB_ENV_FROM_PARENT';

export function environmentFromParent(proc: NodeJS.Process = process): Promise<void> {
  if (proc.env[ENV_FROM_PARENT] !== '1' || typeof proc.send !== 'function') return Promise.resolve();
  return new Promise((resolve) => {
    const onMessage = (message: unknown) => {
      const env = (message as Record<string, unknown> | null)?.[ENV_FROM_PARENT];
      if (typeof env !== 'object' || env === null) return;
      proc.off('message', onMessage);
      Object.assign(proc.env, env);
      delete proc.env[ENV_FROM_PARENT];
      resolve();
    };
    proc.on('message', onMessage);
  });
}

/**
 * Sent by a local pool just before its final SIGTERM: its stack (queue included) goes away with
 * it, so a receive in flight has nothing left to lose and is abandoned at once, not waited out.
 */
export const STACK_STOPPING = 'GEOHUB_STACK_STOPPING';

/** The side of the IPC channel a worker listens on (a Node process started with one). */
export interface ParentChannel {
  readonly send?: unknown;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  off(event: 'message', listener: (message: unknown) => void): unknown;
}

/** Aborts when the local pool says its stack is stopping; never on ECS (no channel). */
export function stackStopping(proc: ParentChannel = process): AbortSignal {
  const stopping = new AbortController();
  if (typeof proc.send !== 'function') return stopping.signal;
  const onMessage = (message: unknown) => {
    if ((message as Record<string, unknown> | null)?.[STACK_STOPPING] !== true) return;
    proc.off('message', onMessage);
    stopping.abort(new Error('the local stack is stopping'));
  };
  proc.on('message', onMessage);
  return stopping.signal;
}
