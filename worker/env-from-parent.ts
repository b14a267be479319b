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
