import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';

/** The first executable called `name` on `path` (a PATH-style list), or undefined. Never runs it. */
export async function findExecutable(
  name: string,
  path: string | undefined = process.env.PATH,
): Promise<string | undefined> {
  for (const dir of (path ?? '').split(delimiter)) {
    // An empty or relative entry would mean "the current directory": not a place to trust.
    if (!dir || !isAbsolute(dir)) continue;
    const candidate = join(dir, name);
    try {
      if (!(await stat(candidate)).isFile()) continue;
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}
