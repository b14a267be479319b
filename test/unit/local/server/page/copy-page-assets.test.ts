import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { copyPageAssets } from '../../../../../local/server/page/copy-page-assets.js';
import { assetSources, pageAssets } from '../../../../../local/server/page/static-assets.js';
import { tempDir } from '../../../../support/temp-dir.js';

const SOURCE = new URL('../../../../../local/server/page/assets', import.meta.url).pathname;

describe('the page assets of a build', () => {
  it('are copies of every source and vendor file, served from the build alone', () => {
    const built = tempDir('geohub-assets-test-');
    const sources = assetSources(SOURCE);
    expect(copyPageAssets(SOURCE, built)).toBe(sources.size);
    const served = pageAssets(built);
    expect(new Set(served.keys())).toEqual(new Set([...sources.keys(), '/']));
    for (const [path, asset] of served) {
      expect(asset.file.startsWith(built), path).toBe(true);
      const source = sources.get(path === '/' ? '/index.html' : path)!;
      expect(readFileSync(asset.file).equals(readFileSync(source)), path).toBe(true);
    }
    // The world outline and the libraries are among them, with their types.
    expect(served.get('/vendor/world-atlas/countries-10m.json')?.contentType).toBe('application/json');
    expect(served.get('/vendor/topojson-client/topojson-client.min.js')?.contentType).toMatch(
      /^text\/javascript/,
    );
    expect(served.get('/output-layer.js')?.contentType).toMatch(/^text\/javascript/);
  });

  it('list only the page files of assets/, never a source module', () => {
    const paths = [...assetSources(SOURCE).keys()];
    expect(paths.every((p) => /^\/([a-z-]+\.(js|css|html)|vendor\/.+)$/.test(p))).toBe(true);
    expect(paths).not.toContain('/static-assets.ts');
  });
});
