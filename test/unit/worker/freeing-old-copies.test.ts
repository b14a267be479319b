import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeRunMembers } from '../../../lib/collection/run-members.js';
import type { RunRecord } from '../../../lib/model/run.js';
import { memberAccess } from '../../../worker/member-access.js';
import { freeingOldCopies, recentRuns } from '../../../worker/recent-runs.js';
import { cachedSourceAccess } from '../../../worker/source-access.js';
import { createMemoryStore } from '../../support/memory-store.js';
import { tempDir } from '../../support/temp-dir.js';

const run = (runId: string, key: string) =>
  ({ runId, source: { bucket: 'memory-bucket', key } }) as unknown as RunRecord;

/**
 * A long-lived worker serves run after run: the source copies and collection members it
 * downloaded must not stay on its scratch disk for ever. The bug it catches: copies never freed
 * (`retain` was never called: every run a worker served stayed on its disk), a run in flight
 * freed, or a dropped run's directory removed after the same run came back and downloaded into it.
 */
describe('a worker frees the copies of runs it no longer serves', () => {
  it('keeps the runs in flight and the last few; a run back after that is downloaded again', async () => {
    const store = createMemoryStore();
    const scratch = tempDir('geohub-scratch-');
    const sources = cachedSourceAccess(store, join(scratch, 'sources'));
    const members = memberAccess(store, join(scratch, 'members'));
    const recent = recentRuns(2);
    const freeing = freeingOldCopies(
      [sources, members],
      (error) => {
        throw error;
      },
      recent,
    );
    const ids = ['r-a', 'r-b', 'r-c', 'r-d'];
    for (const id of ids) {
      store.putBytes(`incoming/${id}.tif`, new Uint8Array(1000));
      store.putBytes(`collections/${id}/m.tif`, new Uint8Array(500));
      const head = await store.head(`collections/${id}/m.tif`);
      await writeRunMembers(store, id, {
        collection: `incoming/${id}.collection.json`,
        members: [{ key: `collections/${id}/m.tif`, version: head!.etag, etag: head!.etag, bytes: 500 }],
        skipped: [],
      });
    }
    // A metatile's work as the worker wraps it (run-worker.ts): its source and member read.
    const serve = (id: string) =>
      freeing(id, async () => {
        await sources.resolve(run(id, `incoming/${id}.tif`));
        await members.resolve(run(id, `incoming/${id}.collection.json`), [0]);
      });
    const onDisk = () => ({
      sources: readdirSync(join(scratch, 'sources'))
        .map((d) => d.split('.')[0])
        .sort(),
      members: readdirSync(join(scratch, 'members'))
        .map((d) => d.split('.')[0])
        .sort(),
    });

    // r-a in flight all along (begun, not ended) while b, c, d are served in turn.
    recent.begin('r-a');
    await sources.resolve(run('r-a', 'incoming/r-a.tif'));
    await members.resolve(run('r-a', 'incoming/r-a.collection.json'), [0]);
    for (const id of ['r-b', 'r-c', 'r-d']) await serve(id);
    expect(onDisk()).toEqual({ sources: ['r-a', 'r-c', 'r-d'], members: ['r-a', 'r-c', 'r-d'] });

    // r-b comes back: downloaded again, into a directory of its own.
    await serve('r-b');
    expect(onDisk()).toEqual({ sources: ['r-a', 'r-b', 'r-d'], members: ['r-a', 'r-b', 'r-d'] });
    const [path] = await members.resolve(run('r-b', 'incoming/r-b.collection.json'), [0]);
    expect(readdirSync(join(path!, '..'))).toEqual(['m.tif']);
    await sources.dispose();
    await members.dispose();
  });
});
