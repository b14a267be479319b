import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

const VIRTUAL = '\0geohub-native-json:';

/**
 * Vite turns an imported JSON file into a JavaScript module for every test fork: for the EPSG
 * registry (8 MB, imported by lib/tiling/epsg-database.ts) that took ~10 s of import per file
 * that reaches it. This hands the named packages' JSON to Node's own loader instead: the same
 * file, the same object, parsed natively in ~0.1 s. Tests only; the Lambda bundle and the
 * built CLI import the file as they always did.
 */
export function nativeJson(specifiers: readonly string[]): Plugin {
  const require = createRequire(import.meta.url);
  return {
    name: 'geohub:native-json',
    enforce: 'pre',
    resolveId(source) {
      // Ends in .js: an id ending in .json would still go through Vite's JSON transform. The
      // package name, not its path: Vitest hands an id under node_modules to Node as it is.
      return specifiers.includes(source) ? `${VIRTUAL}${source}.js` : null;
    },
    load(id) {
      if (!id.startsWith(VIRTUAL)) return null;
      const file = require.resolve(id.slice(VIRTUAL.length, -'.js'.length));
      return `import { createRequire } from 'node:module';\nexport default createRequire(${JSON.stringify(file)})(${JSON.stringify(file)});\n`;
    },
  };
}
