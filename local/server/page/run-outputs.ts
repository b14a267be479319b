import type { ObjectStore } from '../../../lib/store/object-store.js';

/** What a finished run offers for download, with the content type each is served as. */
export const OUTPUT_FILES: Readonly<Record<string, string>> = {
  'mosaic.vrt': 'application/xml',
  'collection.json': 'application/json',
  'items.json': 'application/geo+json',
  'summary.json': 'application/json',
};

/** Where finalize writes a run's outputs (lib/coordination/finalize-run.ts). */
export const outputKey = (runId: string, name: string) => `tiles/${runId}/${name}`;

/** The outputs that exist for this run, as the page's download URLs. */
export async function availableOutputs(store: ObjectStore, runId: string): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  await Promise.all(
    Object.keys(OUTPUT_FILES).map(async (name) => {
      if (await store.head(outputKey(runId, name))) found[name] = `/api/runs/${runId}/outputs/${name}`;
    }),
  );
  return found;
}
