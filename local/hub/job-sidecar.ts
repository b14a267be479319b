import { sidecarKeyFor } from '../../lib/split/job-params.js';
import type { ObjectStore } from '../../lib/store/object-store.js';

/**
 * Stores `key`'s job sidecar (when there is a job), then the object itself with `store`: the
 * sidecar goes first so that the object's event finds it. If storing the object fails or is
 * stopped (Ctrl-C), the sidecar is removed again, that version for good (no delete marker left
 * in a versioned bucket): alone, it would lie in incoming/ for good. Neither request is under
 * the caller's signal: Ctrl-C is exactly when the sidecar must go.
 */
export async function withJobSidecar<T>(
  objects: ObjectStore,
  key: string,
  job: object | undefined,
  store: () => Promise<T>,
): Promise<T> {
  const sidecar = job ? await objects.putText(sidecarKeyFor(key), JSON.stringify(job)) : undefined;
  try {
    return await store();
  } catch (error) {
    if (sidecar) await objects.delete(sidecarKeyFor(key), { versionId: sidecar.versionId });
    throw error;
  }
}
