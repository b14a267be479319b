import type { ObjectStore } from '../lib/store/object-store.js';

/**
 * Fault injection for the reliability tests, off unless GEOHUB_FAULT is set:
 * `crash-after-upload:N` kills this worker with SIGKILL right after its N-th tile upload
 * returned, before the marker is written — the window the marker-after-object rule is for.
 */
export function withFaults(
  store: ObjectStore,
  spec: string | undefined,
  crash: () => void = () => process.kill(process.pid, 'SIGKILL'),
): ObjectStore {
  const match = spec?.match(/^crash-after-upload:(\d+)$/);
  if (!match) return store;
  const after = Number(match[1]);
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
