// An esbuild plugin for bundles that stand in for modules of the build (dist/): each bundled
// module of ours keeps the `import.meta.url` it has in dist/, as a URL relative to the bundle's
// own. Paths found from it — sibling entry points, the worker and Lambda bundles, the page's
// assets, node_modules through createRequire, the project root — are then those of the build.
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';

/**
 * `root`: the project; `outfile`: where the bundle is written (its chunks, if any, in the same
 * directory: a chunk's URL must be one path from the modules it holds); `dist`: where `tsc`
 * writes the modules it stands in for.
 */
export function moduleUrlPlugin({ root, outfile, dist }) {
  return {
    name: 'module-url',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (args.path.includes(`${sep}node_modules${sep}`)) return undefined;
        const source = await readFile(args.path, 'utf8');
        if (!source.includes('import.meta.url')) return undefined;
        const built = join(dist, relative(root, args.path)).replace(/\.ts$/, '.js');
        const fromBundle = relative(dirname(outfile), built).split(sep).join('/');
        return {
          contents: source.replaceAll(
            'import.meta.url',
            `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`,
          ),
          loader: 'ts',
        };
      });
    },
  };
}
