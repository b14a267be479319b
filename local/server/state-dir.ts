import { constants, existsSync } from 'node:fs';
import { lstat, mkdir, open } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { StateDirError } from './errors.js';

/** The per-user directory for `geohub up`'s secrets: the runtime dir, else the state dir. */
export function upStateDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.XDG_RUNTIME_DIR) return join(env.XDG_RUNTIME_DIR, 'geohub');
  return join(env.XDG_STATE_HOME ?? join(env.HOME ?? homedir(), '.local', 'state'), 'geohub');
}

/**
 * Opens `geohub up`'s state directory without following a link, as a directory of this user's,
 * and makes it 0700 through the open descriptor. A shared runtime directory (XDG_RUNTIME_DIR=/tmp
 * on a misconfigured host) lets another user plant `geohub` as a link to a directory of ours: a
 * check of the link's target passes, so the link itself is refused (lstat before, O_NOFOLLOW and
 * fstat after on the same inode). Returns the path to use for files in it: through the
 * descriptor (/proc/self/fd), so a swap after the checks changes nothing; and its closer.
 */
export async function openStateDir(
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ path: (name: string) => string; close: () => Promise<void> }> {
  const dir = upStateDir(env);
  // The parent is the user's runtime dir or ~/.local/state: created as the user's if missing.
  await mkdir(dirname(dir), { recursive: true, mode: 0o700 });
  await mkdir(dir, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  const uid = process.getuid?.();
  const before = await lstat(dir);
  if (before.isSymbolicLink()) throw new StateDirError(dir, 'is a symbolic link');
  if (!before.isDirectory()) throw new StateDirError(dir, 'is not a directory');
  if (uid !== undefined && before.uid !== uid) throw new StateDirError(dir, 'belongs to another user');
  const flags = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
  const handle = await open(dir, flags).catch((error: NodeJS.ErrnoException) => {
    throw new StateDirError(dir, `cannot be opened as a directory (${error.code})`, { cause: error });
  });
  try {
    const after = await handle.stat();
    if (after.ino !== before.ino || after.dev !== before.dev || (uid !== undefined && after.uid !== uid)) {
      throw new StateDirError(dir, 'was replaced while it was checked');
    }
    await handle.chmod(0o700);
  } catch (error) {
    await handle.close();
    throw error;
  }
  const viaFd = existsSync(`/proc/self/fd/${handle.fd}`);
  return {
    path: (name) => (viaFd ? join(`/proc/self/fd/${handle.fd}`, name) : join(dir, name)),
    close: () => handle.close(),
  };
}
