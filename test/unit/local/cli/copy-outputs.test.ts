import { existsSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPrefix, tilesPrefix } from '../../../../lib/model/ids.js';
import { copyRunOutputs } from '../../../../local/cli/copy-outputs.js';
import { createMemoryStore } from '../../../support/memory-store.js';
import { tempDir } from '../../../support/temp-dir.js';

const RUN = 'r-0123456789abcdef0123';

/** A run's tiles spread over few columns, so that concurrent downloads meet on every directory. */
function storeWithTiles(count: number) {
  const store = createMemoryStore();
  const keys: string[] = [];
  for (let i = 0; i < count; i++) {
    const key = `${tilesPrefix(RUN)}17/${1000 + (i % 3)}/${2000 + i}.tif`;
    store.putBytes(key, Buffer.from(`tile ${i}`));
    keys.push(key);
  }
  store.putBytes(`${runPrefix(RUN)}summary.json`, Buffer.from('{"tiles":"../../tiles/x"}\n'));
  return { store, keys };
}

describe('copyRunOutputs: several downloads at a time', () => {
  it('copies every tile to z/x/y.tif, byte for byte, however the downloads interleave', async () => {
    const out = tempDir('geohub-copy-');
    const { store, keys } = storeWithTiles(300);
    const copied = await copyRunOutputs(store, RUN, out);
    expect(copied).toBe(301);
    for (const [i, key] of keys.entries()) {
      const path = join(out, key.slice(tilesPrefix(RUN).length));
      expect(readFileSync(path, 'utf8')).toBe(`tile ${i}`);
    }
    expect(readdirSync(join(out, '17')).sort()).toEqual(['1000', '1001', '1002']);
    expect(existsSync(join(out, 'summary.json'))).toBe(true);
    // The staging directory is gone; only the outputs and the marker are left.
    expect(readdirSync(out).sort()).toEqual(['.geohub-output.json', '17', 'summary.json']);
  });

  it('stops at the first failed download, waits for the others, and leaves no staging directory', async () => {
    const out = tempDir('geohub-copy-');
    const { store } = storeWithTiles(200);
    const download = store.download.bind(store);
    let calls = 0;
    store.download = async (key, path, options) => {
      calls += 1;
      if (calls === 40) throw new Error('connection reset');
      return download(key, path, options);
    };
    await expect(copyRunOutputs(store, RUN, out)).rejects.toThrow('connection reset');
    // Stopped: at most what was in flight or queued behind the failure was still asked for.
    expect(calls).toBeLessThan(40 + 3 * 8);
    expect(readdirSync(out).filter((n) => n.startsWith('.geohub-staging-'))).toEqual([]);
  });
});

describe('copyRunOutputs: never through a link', () => {
  it('refuses a zoom directory that is a symbolic link and writes nothing where it points', async () => {
    const out = tempDir('geohub-copy-');
    const elsewhere = tempDir('geohub-elsewhere-');
    symlinkSync(elsewhere, join(out, '17'));
    const { store } = storeWithTiles(10);
    await expect(copyRunOutputs(store, RUN, out)).rejects.toThrow(
      `refusing to write through ${join(out, '17')}: it is not a plain directory`,
    );
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(readdirSync(out).filter((n) => n.startsWith('.geohub-staging-'))).toEqual([]);
  });
});

describe('copyRunOutputs: tiles before the outputs are written', () => {
  it('copies the tiles at once and lists the outputs only once outputsReady settles', async () => {
    const out = tempDir('geohub-copy-');
    const { store, keys } = storeWithTiles(50);
    // The finalize has not written the run's outputs yet.
    await store.delete(`${runPrefix(RUN)}summary.json`);
    const download = store.download.bind(store);
    let downloads = 0;
    let tilesCopied!: () => void;
    const allTiles = new Promise<void>((resolve) => {
      tilesCopied = resolve;
    });
    store.download = async (key, path, options) => {
      const result = await download(key, path, options);
      downloads += 1;
      if (downloads === keys.length) tilesCopied();
      return result;
    };
    let ready!: () => void;
    const outputsReady = new Promise<void>((resolve) => {
      ready = resolve;
    });
    const copy = copyRunOutputs(store, RUN, out, { outputsReady });
    await allTiles;
    // Written by the finalize while the tiles were being copied: listed later, so copied.
    store.putBytes(`${runPrefix(RUN)}summary.json`, Buffer.from('{"tiles":"../../tiles/x"}\n'));
    ready();
    expect(await copy).toBe(51);
    expect(readFileSync(join(out, 'summary.json'), 'utf8')).toContain('"tiles"');
    expect(readdirSync(out).sort()).toEqual(['.geohub-output.json', '17', 'summary.json']);
  });

  it('copies no outputs when outputsReady rejects, fails with its reason, and leaves no staging directory', async () => {
    const out = tempDir('geohub-copy-');
    const { store } = storeWithTiles(20);
    const copy = copyRunOutputs(store, RUN, out, { outputsReady: Promise.reject(new Error('up gone')) });
    await expect(copy).rejects.toThrow('up gone');
    expect(existsSync(join(out, 'summary.json'))).toBe(false);
    expect(readdirSync(out).filter((n) => n.startsWith('.geohub-staging-'))).toEqual([]);
  });
});
