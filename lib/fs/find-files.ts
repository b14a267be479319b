import { type Dirent, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Every file under `dir` whose name matches, recursively; a missing directory has none. */
export function findFiles(dir: string, match: (name: string) => boolean): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) =>
    e.isDirectory() ? findFiles(join(dir, e.name), match) : match(e.name) ? [join(dir, e.name)] : [],
  );
}
