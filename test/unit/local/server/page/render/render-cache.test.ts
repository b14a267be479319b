import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRenderCache } from '../../../../../../local/server/page/render/render-cache.js';
import { tempDir } from '../../../../../support/temp-dir.js';

function file(dir: string, name: string, bytes: number) {
  const path = join(dir, name);
  writeFileSync(path, Buffer.alloc(bytes));
  return { file: path, bytes };
}

describe('the render cache', () => {
  it('evicts the least recently used files past its size cap, deleting them', () => {
    const cache = createRenderCache(250, tempDir('geohub-cache-test-'));
    cache.put('a', file(cache.dir, 'a.png', 100));
    cache.put('b', file(cache.dir, 'b.png', 100));
    expect(cache.get('a')).toBeDefined(); // a is now more recent than b
    cache.put('c', file(cache.dir, 'c.png', 100));
    expect(cache.get('b')).toBeUndefined();
    expect(readdirSync(cache.dir).sort()).toEqual(['a.png', 'c.png']);
    expect(cache.bytes).toBe(200);
    cache.close();
  });

  it('does not keep a file larger than the whole cache, and deletes it', () => {
    const cache = createRenderCache(50, tempDir('geohub-cache-test-'));
    cache.put('big', file(cache.dir, 'big.png', 100));
    expect(cache.get('big')).toBeUndefined();
    expect(readdirSync(cache.dir)).toEqual([]);
    cache.close();
  });

  it('replacing an entry deletes the file it replaced; close removes the directory', () => {
    const cache = createRenderCache(1_000, tempDir('geohub-cache-test-'));
    cache.put('k', file(cache.dir, 'old.png', 10));
    cache.put('k', file(cache.dir, 'new.png', 10));
    expect(readdirSync(cache.dir)).toEqual(['new.png']);
    cache.close();
    expect(existsSync(cache.dir)).toBe(false);
  });
});
