import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const START = '<!-- bench:start -->';
const END = '<!-- bench:end -->';

/** Replaces the README's benchmark table (between its markers); false when the markers are missing. */
export function writeReadmeTable(root: string, table: string): boolean {
  const path = join(root, 'README.md');
  const readme = readFileSync(path, 'utf8');
  if (!readme.includes(START) || !readme.includes(END)) return false;
  writeFileSync(
    path,
    `${readme.slice(0, readme.indexOf(START) + START.length)}\n${table}\n${readme.slice(readme.indexOf(END))}`,
  );
  return true;
}
