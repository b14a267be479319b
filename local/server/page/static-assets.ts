import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.json': 'application/json',
};

/** The page's own files are what assets/ holds of these kinds (plain ES modules and CSS: no bundler). */
const OWN_KINDS = new Set(['.html', '.js', '.css']);

/** Files of npm packages the page loads, by package: [file in the package, URL path under /vendor/]. */
const VENDOR_FILES: readonly (readonly [string, string, string])[] = [
  // What Leaflet's CSS refers to (images/…) besides its script and stylesheet.
  ...['leaflet.js', 'leaflet.css', 'images/layers.png', 'images/layers-2x.png', 'images/marker-icon.png']
    .concat(['images/marker-icon-2x.png', 'images/marker-shadow.png'])
    .map((f) => ['leaflet', `dist/${f}`, `leaflet/${f}`] as const),
  ['topojson-client', 'dist/topojson-client.min.js', 'topojson-client/topojson-client.min.js'],
  // Natural Earth 1:10m countries (public domain), as TopoJSON: coastlines and borders.
  ['world-atlas', 'countries-10m.json', 'world-atlas/countries-10m.json'],
];

export interface Asset {
  readonly file: string;
  readonly contentType: string;
}

const here = dirname(fileURLToPath(import.meta.url));
/** Where the build copies every asset (dist/local/server/page/assets), vendor files included. */
const BUILT_DIR = join(here, 'assets');
const isBuilt = (dir: string) => existsSync(join(dir, 'vendor', 'leaflet', 'leaflet.js'));

function packageDir(name: string): string {
  return dirname(createRequire(import.meta.url).resolve(`${name}/package.json`));
}

/** URL path → file in the source tree and node_modules: what the build copies, and what tests serve. */
export function assetSources(sourceDir = join(here, 'assets')): Map<string, string> {
  const files = new Map<string, string>();
  // Listed once, at start-up: the map is then fixed, and a request is only ever looked up in it.
  for (const name of readdirSync(sourceDir).sort()) {
    if (OWN_KINDS.has(extname(name))) files.set(`/${name}`, join(sourceDir, name));
  }
  for (const [pkg, file, path] of VENDOR_FILES) files.set(`/vendor/${path}`, join(packageDir(pkg), file));
  return files;
}

/** URL path → file of a build (copy-page-assets.ts lays the files out by URL path). */
function builtAssets(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const name of readdirSync(dir).sort()) {
    if (OWN_KINDS.has(extname(name))) files.set(`/${name}`, join(dir, name));
  }
  for (const [, , path] of VENDOR_FILES) files.set(`/vendor/${path}`, join(dir, 'vendor', path));
  return files;
}

/**
 * The fixed allow-list of URL paths the page serves, each to one file: a request path is only
 * ever looked up here, never joined to a directory, so no path can reach another file. A build
 * serves its own copy (dist/ alone is enough); a source checkout serves assets/ and node_modules.
 */
export function pageAssets(builtDir = BUILT_DIR): ReadonlyMap<string, Asset> {
  const assets = new Map<string, Asset>();
  // A build holds the copies of exactly what the sources list: list the copies themselves.
  for (const [path, file] of isBuilt(builtDir) ? builtAssets(builtDir) : assetSources()) {
    assets.set(path, { file, contentType: CONTENT_TYPES[extname(file)] ?? 'application/octet-stream' });
  }
  assets.set('/', assets.get('/index.html')!);
  return assets;
}
