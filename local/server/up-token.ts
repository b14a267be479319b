import { randomBytes } from 'node:crypto';
import { constants, rmSync } from 'node:fs';
import { open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { openStateDir, upStateDir } from './state-dir.js';

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
  /**
   * The same, with the operator's key (docs/deploy.md, "Operator permissions"): what `geohub run`
   * reads a run's outputs with when it uses this up (local/cli/run-on-up.ts).
   */
  readonly operator?: Readonly<Record<string, string>>;
  /**
   * Its output mirror (lib/output/output-mirror.ts, per run): `geohub run` on this up links its
   * run's tiles from `<mirror>/<runId>` instead of downloading them, then removes that directory.
   */
  readonly mirror?: string;
}

export const newUpSecret = () => randomBytes(32).toString('base64url');

/**
 * Writes the secret where only this user can read it: a 0700 directory we own, opened without
 * following a link (state-dir.ts), a 0600 file created exclusively (never through a link left in
 * its place). Returns its remover.
 */
export async function writeUpToken(
  port: number,
  value: UpToken,
  env?: NodeJS.ProcessEnv,
): Promise<() => Promise<void>> {
  const dir = await openStateDir(env);
  try {
    await writeTokenIn(dir.path(`up-${port}.json`), value);
  } finally {
    await dir.close();
  }
  const file = tokenFile(port, env);
  // Whatever way this process ends short of SIGKILL, its secret goes with it (the CLI judges
  // what a SIGKILL leaves behind: api-client.ts).
  const onExit = () => rmSync(file, { force: true });
  process.once('exit', onExit);
  return async () => {
    process.off('exit', onExit);
    await rm(file, { force: true });
  };
}

async function writeTokenIn(file: string, value: UpToken): Promise<void> {
  await rm(file, { force: true });
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
  const handle = await open(file, flags, 0o600);
  try {
    await handle.writeFile(`${JSON.stringify(value)}\n`);
  } finally {
    await handle.close();
  }
}

/** The secret of the `geohub up` on `port`, if this user started one. */
export async function readUpToken(port: number, env?: NodeJS.ProcessEnv): Promise<UpToken | undefined> {
  try {
    return JSON.parse(await readFile(tokenFile(port, env), 'utf8')) as UpToken;
  } catch {
    return undefined;
  }
}
