import { existsSync } from 'node:fs';
import { GeohubError } from '../lib/errors/geohub-error.js';
import type { ObjectStore } from '../lib/store/object-store.js';

/** An injected dependency failure: looks like a flaky S3, so it is retried like one. */
export class InjectedFaultError extends GeohubError {
  override readonly name = 'InjectedFaultError';
}

export const FAULT_PATTERN = /^(crash-after-upload:\d+|(fail|hold)-upload:[^:]+:.+)$/;

/**
 * Fault injection for the reliability tests, off unless GEOHUB_FAULT is set:
 * - `crash-after-upload:N` kills this worker with SIGKILL right after its N-th tile upload
 *   returned, before the marker is written — the window the marker-after-object rule is for;
 * - `fail-upload:<key part>:<flag file>` makes uploads of keys containing <key part> fail
 *   while <flag file> exists — a dependency failure whose cause a test can then remove;
 * - `hold-upload:<key part>:<flag file>` makes uploads of keys containing <key part> wait while
 *   <flag file> exists (the request's signal still ends the wait) — a slow S3, so a test can see
 *   a metatile uploading while the next one's tool runs, and stop the worker right then.
 */
export function withFaults(
  store: ObjectStore,
  spec: string | undefined,
  crash: () => void = () => process.kill(process.pid, 'SIGKILL'),
): ObjectStore {
  const crashAfter = spec?.match(/^crash-after-upload:(\d+)$/);
  if (crashAfter) {
    const after = Number(crashAfter[1]);
    let uploads = 0;
    return {
      ...store,
      async putFile(key, path, options) {
        const head = await store.putFile(key, path, options);
        uploads += 1;
        if (uploads === after) {
          crash();
          await new Promise(() => {}); // SIGKILL is asynchronous: never return to write the marker
        }
        return head;
      },
    };
  }
  const flagged = spec?.match(/^(fail|hold)-upload:([^:]+):(.+)$/);
  if (flagged) {
    const [, kind, part, flag] = flagged as unknown as [string, 'fail' | 'hold', string, string];
    return {
      ...store,
      async putFile(key, path, options) {
        if (kind === 'fail' && key.includes(part) && existsSync(flag))
          throw new InjectedFaultError(`injected upload failure for ${key}`);
        while (kind === 'hold' && key.includes(part) && existsSync(flag)) {
          options?.signal?.throwIfAborted();
          await new Promise((r) => setTimeout(r, 50));
        }
        return store.putFile(key, path, options);
      },
    };
  }
  return store;
}
