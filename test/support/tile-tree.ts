import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The `z/x/y` of every `<y>.<ext>` file of a tile tree (geohub's --out, gdal2tiles.py's output), sorted. */
export function tileTree(root: string, ext: string): string[] {
  const found: string[] = [];
  for (const z of readdirSync(root).filter((d) => /^\d+$/.test(d)))
    for (const x of readdirSync(join(root, z)).filter((d) => /^\d+$/.test(d)))
      for (const file of readdirSync(join(root, z, x)).filter((f) => f.endsWith(`.${ext}`)))
        found.push(`${z}/${x}/${file.slice(0, -ext.length - 1)}`);
  return found.sort();
}
