import { randomBytes } from 'node:crypto';
import { constants, rmSync } from 'node:fs';
import { chmod, mkdir, open, readFile, rm, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The per-user directory for `geohub up`'s secrets: the runtime dir, else the state dir. */
export function upStateDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.XDG_RUNTIME_DIR) return join(env.XDG_RUNTIME_DIR, 'geohub');
  return join(env.XDG_STATE_HOME ?? join(env.HOME ?? homedir(), '.local', 'state'), 'geohub');
}

export const tokenFile = (port: number, env?: NodeJS.ProcessEnv) => join(upStateDir(env), `up-${port}.json`);

export interface UpToken {
  readonly url: string;
  readonly token: string;
  readonly pid: number;
  /**
   * The environment that points geohub (or the AWS CLI) at this up's stack: its endpoints, names
   * and key. Kept here, readable by its owner only, rather than read off a worker's environment:
   * the workers start before the stack and get theirs over IPC (local/pool/worker-pool.ts).
   */
  readonly stack?: Readonly<Record<string, string>>;
}

export const newUpSecret = () => randomBytes(32).toString('base64url');

/**
 * Writes the secret where only this user can read it: a 0700 directory we own, a 0600 file
 * created exclusively (never through a link left in its place). Returns its remover.
 */
export async function writeUpToken(
  port: number,
  value: UpToken,
  env?: NodeJS.ProcessEnv,
): Promise<() => Promise<void>> {
  const dir = upStateDir(env);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const s = await stat(dir);
  if (typeof process.getuid === 'function' && s.uid !== process.getuid()) {
    throw new Error(`${dir} belongs to another user: refusing to keep geohub up's secret there`);
  }
  await chmod(dir, 0o700);
  const file = tokenFile(port, env);
  await rm(file, { force: true });
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
  const handle = await open(file, flags, 0o600);
  try {
    await handle.writeFile(`${JSON.stringify(value)}\n`);
  } finally {
    await handle.close();
  }
  // Whatever way this process ends (a crash included), its secret goes with it.
  const onExit = () => rmSync(file, { force: true });
  process.once('exit', onExit);
  return async () => {
    process.off('exit', onExit);
    await rm(file, { force: true });
  };
}

/** The secret of the `geohub up` on `port`, if this user started one. */
export async function readUpToken(port: number, env?: NodeJS.ProcessEnv): Promise<UpToken | undefined> {
  try {
    return JSON.parse(await readFile(tokenFile(port, env), 'utf8')) as UpToken;
  } catch {
    return undefined;
  }
}
