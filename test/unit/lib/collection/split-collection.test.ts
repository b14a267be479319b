import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UnreadableMembersError } from '../../../../lib/collection/errors.js';
import { readRunMembers } from '../../../../lib/collection/run-members.js';
import { allManifestMetatiles } from '../../../../lib/manifest/walk-manifest.js';
import { split } from '../../../../lib/split/split.js';
import { createMemoryLedger } from '../../../support/memory-ledger.js';
import { createMemoryStore } from '../../../support/memory-store.js';
import { tempDir } from '../../../support/temp-dir.js';

const RGB = new URL('../../../../examples/raster/RGB.byte.tif', import.meta.url).pathname;

/** Two halves of RGB.byte.tif in the bucket, and a collection manifest naming them. */
async function halves(manifest: (bucket: string, keys: string[]) => unknown) {
  const dir = tempDir('geohub-halves-');
  const store = createMemoryStore();
  const keys = ['collections/s/top.tif', 'collections/s/bottom.tif'];
  ['0 0 791 359', '0 359 791 359'].forEach((window, i) => {
    const path = join(dir, `${i}.tif`);
    execFileSync('gdal_translate', ['-q', '-srcwin', ...window.split(' '), RGB, path]);
    store.putBytes(keys[i]!, new Uint8Array(readFileSync(path)));
  });
  const key = 'incoming/s.collection.json';
  store.putBytes(key, new Uint8Array(Buffer.from(JSON.stringify(manifest(store.bucket, keys)))));
  const head = (await store.head(key))!;
  const etag = head.etag.replace(/"/g, '');
  return { store, source: { bucket: store.bucket, key, version: etag, etag }, keys };
}

describe('split of a collection', () => {
  it('a STAC ItemCollection: its items’ data assets are the members, pinned to the versions found', async () => {
    const { store, source, keys } = await halves((bucket, ks) => ({
      type: 'FeatureCollection',
      features: ks.map((k, i) => ({
        type: 'Feature',
        id: `sheet-${i}`,
        assets: {
          thumbnail: { href: `s3://${bucket}/${k}.png` },
          image: { href: `s3://${bucket}/${k}`, roles: ['data'] },
        },
      })),
    }));
    const result = await split({ source, params: { zoom: 12 } }, { store, ledger: createMemoryLedger() });
    const list = (await readRunMembers(store, result.runId))!;
    expect(list.members.map((m) => m.key)).toEqual(keys);
    for (const m of list.members) expect(m.etag).toBe((await store.head(m.key))!.etag.replace(/"/g, ''));
    // Every metatile names the halves under it: at zoom 12 the top rows the top half only, the
    // bottom rows the bottom one, the row where they meet both.
    const metatiles = await allManifestMetatiles(store, result.runId);
    expect(metatiles.reduce((n, m) => n + m.tiles.length, 0)).toBe(result.total);
    expect(new Set(metatiles.map((m) => JSON.stringify(m.members)))).toEqual(
      new Set(['[0]', '[0,1]', '[1]']),
    );
  });

  it('refuses a member that is not in the bucket before anything is queued, naming it', async () => {
    const { store, source } = await halves((_, ks) => ({
      members: [...ks, 'collections/s/missing.tif'].map((key) => ({ key, etag: 'abc' })),
    }));
    const ledger = createMemoryLedger();
    const error = await split({ source, params: {} }, { store, ledger }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreadableMembersError);
    expect((error as Error).message.split('\n')).toEqual([
      expect.stringMatching(/1 of 3 members cannot be read; nothing was started/),
      expect.stringContaining('collections/s/missing.tif'),
    ]);
  });
});
