import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

interface StacLink {
  rel: string;
  href: string;
}
export interface StacAsset {
  href: string;
  type: string;
  'file:size': number;
  [field: string]: unknown;
}
export interface StacItemFile {
  type: string;
  id: string;
  stac_extensions: string[];
  properties: Record<string, unknown>;
  links: StacLink[];
  assets: Record<string, StacAsset>;
}
export interface StacDocument {
  type: string;
  stac_extensions?: string[];
  links: StacLink[];
  [field: string]: unknown;
}

export interface StacCollectionFile extends StacDocument {
  title: string;
  description: string;
  extent: { temporal: { interval: string[][] } };
  assets: Record<string, { href: string; type: string; roles: string[] }>;
}

/**
 * A local copy of a run's catalog walked as a static-catalog reader does (PySTAC's
 * `get_items(recursive=True)`, STAC Browser): from collection.json by `child` and `item` links
 * only, nothing listed from the directory. Returns every catalog and item document reached
 * (each with its path) and every tile asset, with the local path its href points to.
 */
export function walkStacCatalog(dir: string) {
  const catalogs: { path: string; doc: StacDocument }[] = [];
  const items: { path: string; item: StacItemFile }[] = [];
  const read = <T>(path: string) => JSON.parse(readFileSync(path, 'utf8')) as T;
  const visit = (path: string) => {
    const doc = read<StacDocument>(path);
    catalogs.push({ path, doc });
    for (const link of doc.links) {
      const target = join(dirname(path), link.href);
      if (link.rel === 'child') visit(target);
      else if (link.rel === 'item') items.push({ path: target, item: read<StacItemFile>(target) });
    }
  };
  visit(join(dir, 'collection.json'));
  const tiles = items.flatMap(({ path, item }) =>
    Object.entries(item.assets).map(([name, asset]) => ({
      item,
      name,
      asset,
      assetPath: join(dirname(path), asset.href),
    })),
  );
  return { collection: catalogs[0]!.doc as StacCollectionFile, catalogs, items, tiles };
}
