import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PMTiles, type Source } from 'pmtiles';

/** A PMTiles archive on disk, opened with the official decoder (the `pmtiles` package). */
export function openPmtiles(path: string): PMTiles {
  const bytes = readFileSync(path);
  const source: Source = {
    getKey: () => path,
    getBytes: async (offset, length) => ({
      data: bytes.buffer.slice(bytes.byteOffset + offset, bytes.byteOffset + offset + length) as ArrayBuffer,
    }),
  };
  return new PMTiles(source);
}

/** Every tile file `z/x/y.<ext>` under `root` that differs from (or is missing in) the archive. */
export async function archiveMismatches(
  archive: PMTiles,
  root: string,
  names: readonly string[],
  ext: string,
) {
  const bad: string[] = [];
  for (const name of names) {
    const [z, x, y] = name.split('/').map(Number) as [number, number, number];
    const tile = await archive.getZxy(z, x, y);
    const file = readFileSync(join(root, `${name}.${ext}`));
    if (!tile || Buffer.compare(Buffer.from(tile.data), file) !== 0) bad.push(name);
  }
  return bad;
}
