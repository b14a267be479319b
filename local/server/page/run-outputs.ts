import { OUTPUT_FILES } from '../../../lib/coordination/run-outputs.js';
import { runPrefix, tilesPrefix } from '../../../lib/model/ids.js';
import type { ObjectStore } from '../../../lib/store/object-store.js';

/**
 * Where finalize may have written a run's outputs, in the order looked at: apart from its tiles
 * (`runs/<run>/`), or beside them (`tiles/<run>/`) as runs finalized by earlier versions have them.
 */
export const outputKeys = (runId: string, name: string) => [
  `${runPrefix(runId)}${name}`,
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

/** An output the page offers: its name, its label and its download URL. */
export interface OfferedOutput {
  readonly name: string;
  readonly label: string;
  readonly url: string;
}

/** The outputs that exist for this run, in OUTPUT_FILES' order, as the page's download links. */
export async function availableOutputs(store: ObjectStore, runId: string): Promise<OfferedOutput[]> {
  const names = Object.keys(OUTPUT_FILES);
  const found = await Promise.all(names.map((name) => findOutput(store, runId, name)));
  return names.flatMap((name, i) =>
    found[i] ? [{ name, label: OUTPUT_FILES[name]!.label, url: `/api/runs/${runId}/outputs/${name}` }] : [],
  );
}
