import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { type CliResult, startCli } from './cli.js';

export interface UpSession {
  readonly child: ReturnType<typeof startCli>['child'];
  readonly done: Promise<CliResult>;
  readonly url: string;
  readonly port: string;
  /** The page's one-time login URL, as `geohub up` prints it. */
  readonly pageUrl: string;
  /** Its render cache directory, removed when it stops. */
  readonly renderCache: string;
  /** The per-start secret, read from the file only this user can read (as the CLI does). */
  readonly token: string;
  /** The stack's environment (endpoints, names, key id), from the same owner-only file. */
  readonly stackEnv: Readonly<Record<string, string>>;
  /** fetch() as the user who started it: with the secret as a bearer token. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
}

/** Starts `geohub up --port 0 --json` and waits for its ready line. */
export async function startUp(
  env: Record<string, string> = {},
  options: { detached?: boolean } = {},
): Promise<UpSession> {
  const up = startCli(['up', '--port', '0', '--json'], env, options);
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: up.child.stdout! }).once('line', resolve);
    up.child.once('exit', (code) => reject(new Error(`geohub up exited early (${code})`)));
  });
  const ready = JSON.parse(line) as { url: string; pageUrl: string; tokenFile: string; renderCache: string };
  const { token, stack } = JSON.parse(readFileSync(ready.tokenFile, 'utf8')) as {
    token: string;
    stack: Record<string, string>;
  };
  return {
    ...up,
    url: ready.url,
    port: new URL(ready.url).port,
    pageUrl: ready.pageUrl,
    renderCache: ready.renderCache,
    token,
    stackEnv: stack,
    fetch: (path, init = {}) =>
      fetch(`${ready.url}${path}`, {
        ...init,
        headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` },
      }),
  };
}
