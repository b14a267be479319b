import { isAbsolute } from 'node:path';
import { readUpToken } from '../server/up-token.js';
import { upSession } from './api-client.js';

/** The user's own `geohub up`, proven to be the one that wrote its file (api-client.ts). */
export interface RunningUp {
  readonly port: number;
  readonly url: string;
  readonly pid: number;
  /** Its stack's environment with the operator's key: what its outputs are read with. */
  readonly operator: Readonly<Record<string, string>>;
  /** Its output mirror's root (up-token.ts), when it has one. */
  readonly mirror?: string;
}

export type UpLookup =
  | { readonly found: RunningUp }
  /** A file was there, but its up is not used: why, in one line (said, then a private stack). */
  | { readonly notUsed: string }
  | undefined;

/**
 * The `geohub up` of this user on `port`, for `geohub run` to use instead of starting a stack of
 * its own, as a build daemon is used (Gradle, the Docker CLI). Only from the token file in this
 * user's 0700 state directory, and only once the server answered the file's secret: another
 * user's server on the port, or a stale file, is never used (and never sent the file).
 */
export async function findRunningUp(port: number, env?: NodeJS.ProcessEnv): Promise<UpLookup> {
  const file = await readUpToken(port, env);
  if (!file) return undefined;
  try {
    await upSession(port, env);
  } catch (error) {
    return { notUsed: (error as Error).message };
  }
  if (!file.operator) {
    return {
      notUsed: `the geohub up on 127.0.0.1:${port} is older than this geohub: restart it to share it`,
    };
  }
  const mirror = typeof file.mirror === 'string' && isAbsolute(file.mirror) ? file.mirror : undefined;
  return {
    found: { port, url: file.url, pid: file.pid, operator: file.operator, ...(mirror ? { mirror } : {}) },
  };
}
