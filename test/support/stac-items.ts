import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

interface StacLink {
  rel: string;
  href: string;
}
export interface StacItemFile {
  id: string;
  stac_extensions: string[];
  properties: Record<string, unknown>;
  links: StacLink[];
  assets: { data: { href: string; 'file:size': number } };
}

/**
 * Every STAC item of a local copy of a run, found the way a tool finds them: from
 * collection.json through its `items` links. Each with the local path its asset points to.
 */
export function readStacItems(dir: string): { item: StacItemFile; assetPath: string; part: string }[] {
  const collection = JSON.parse(readFileSync(join(dir, 'collection.json'), 'utf8')) as { links: StacLink[] };
  return collection.links
    .filter((l) => l.rel === 'items')
    .flatMap((l) => {
      const part = join(dir, l.href);
      const features = (JSON.parse(readFileSync(part, 'utf8')) as { features: StacItemFile[] }).features;
      return features.map((item) => ({ item, part, assetPath: join(dirname(part), item.assets.data.href) }));
    });
}
