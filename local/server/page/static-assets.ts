import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
};

/** The page's own files in assets/ (plain ES modules and CSS: no build step). */
const OWN_ASSETS = [
  'index.html',
  'style.css',
  'app.js',
  'api.js',
  'dom.js',
  'format.js',
  'tile-states.js',
  'console-link.js',
  'runs-table.js',
  'run-detail.js',
  'run-map.js',
  'map-legend.js',
  'graticule.js',
  'workers-panel.js',
] as const;

/** What Leaflet's CSS refers to (images/…) besides its script and stylesheet. */
const LEAFLET_FILES = [
  'leaflet.js',
  'leaflet.css',
  'images/layers.png',
  'images/layers-2x.png',
  'images/marker-icon.png',
  'images/marker-icon-2x.png',
  'images/marker-shadow.png',
] as const;

export interface Asset {
  readonly file: string;
  readonly contentType: string;
}

/**
 * assets/ sits next to this module in the source tree; tsc copies no static files, so the built
 * module (dist/local/server/page/) finds it back in the source tree it was built from.
 */
function ownAssetsDir(): string | undefined {
  const here = dirname(fileURLToPath(import.meta.url));
  return [join(here, 'assets'), join(here, '../../../../local/server/page/assets')].find((dir) =>
    existsSync(join(dir, 'index.html')),
  );
}

function leafletDist(): string {
  return join(dirname(createRequire(import.meta.url).resolve('leaflet/package.json')), 'dist');
}

/**
 * The fixed allow-list of URL paths the page serves, each to one file: a request path is only
 * ever looked up here, never joined to a directory, so no path can reach another file.
 */
export function pageAssets(): ReadonlyMap<string, Asset> {
  const assets = new Map<string, Asset>();
  const add = (path: string, file: string) =>
    assets.set(path, { file, contentType: CONTENT_TYPES[extname(file)] ?? 'application/octet-stream' });
  const own = ownAssetsDir();
  if (own) {
    for (const name of OWN_ASSETS) add(`/${name}`, join(own, name));
    add('/', join(own, 'index.html'));
  }
  const leaflet = leafletDist();
  for (const name of LEAFLET_FILES) add(`/vendor/leaflet/${name}`, join(leaflet, name));
  return assets;
}
