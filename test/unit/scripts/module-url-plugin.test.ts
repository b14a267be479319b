import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { moduleUrlPlugin } from '../../../scripts/module-url-plugin.mjs';

const root = mkdtempSync(join(tmpdir(), 'geohub-module-url-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, text: string) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

describe('moduleUrlPlugin', () => {
  it("gives each bundled module its build's URL, in the entry and in a lazily loaded chunk", async () => {
    write('package.json', '{"type":"module"}');
    write('local/deep/where.ts', 'export const where: string = import.meta.url;');
    write(
      'lib/lazy.ts',
      'export const lazyWhere = import.meta.url;\nexport const sibling = new URL("./x.js", import.meta.url).href;',
    );
    write(
      'local/cli/main.ts',
      "export { where } from '../deep/where.js';\nexport const lazy = () => import('../../lib/lazy.js');\nexport const own = import.meta.url;",
    );
    const outdir = join(root, 'dist', 'cli-bundle');
    await build({
      absWorkingDir: root,
      entryPoints: { main: 'local/cli/main.ts' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      outdir,
      splitting: true,
      chunkNames: '[name]-[hash]',
      logLevel: 'silent',
      plugins: [moduleUrlPlugin({ root, outfile: join(outdir, 'main.js'), dist: join(root, 'dist') })],
    });
    const built = (path: string) => pathToFileURL(join(root, 'dist', path)).href;
    const bundle = await import(pathToFileURL(join(outdir, 'main.js')).href);
    expect(bundle.own).toBe(built('local/cli/main.js'));
    expect(bundle.where).toBe(built('local/deep/where.js'));
    // The lazy module went to a chunk of its own, and still says where its built module is.
    const lazy = await bundle.lazy();
    expect(lazy.lazyWhere).toBe(built('lib/lazy.js'));
    expect(lazy.sibling).toBe(built('lib/x.js'));
  });
});
