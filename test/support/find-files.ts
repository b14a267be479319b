import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Every file under `dir` whose name matches, recursively (missing dir = none). */
export function findFiles(dir: string, match: (name: string) => boolean): string[] {
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) =>
    e.isDirectory() ? findFiles(join(dir, e.name), match) : match(e.name) ? [join(dir, e.name)] : [],
  );
}
