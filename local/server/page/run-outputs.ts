import { OUTPUT_FILE_TYPES, runOutputPrefix } from '../../../lib/coordination/run-outputs.js';
import { tilesPrefix } from '../../../lib/model/ids.js';
import type { ObjectStore } from '../../../lib/store/object-store.js';

/**
 * Where finalize may have written a run's outputs, in the order looked at: apart from its tiles
 * (`runs/<run>/`), or beside them (`tiles/<run>/`) as runs finalized by earlier versions have them.
 */
export const outputKeys = (runId: string, name: string) => [
  `${runOutputPrefix(runId)}${name}`,
  `${tilesPrefix(runId)}${name}`,
];

/** The first key of an output that exists, with its size; undefined when the run has none. */
export async function findOutput(store: ObjectStore, runId: string, name: string) {
  for (const key of outputKeys(runId, name)) {
    const head = await store.head(key);
    if (head) return { key, bytes: head.bytes };
  }
  return undefined;
}

/** The outputs that exist for this run, as the page's download URLs. */
export async function availableOutputs(store: ObjectStore, runId: string): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  await Promise.all(
    Object.keys(OUTPUT_FILE_TYPES).map(async (name) => {
      if (await findOutput(store, runId, name)) found[name] = `/api/runs/${runId}/outputs/${name}`;
    }),
  );
  return found;
}
