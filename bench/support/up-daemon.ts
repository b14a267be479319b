import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { projectRoot } from '../../local/project-root.js';
import { onSignalStop } from './stop-on-signal.js';

export interface UpDaemon {
  /** What `geohub run` needs to find and use this up: its port and the state directory of its token file. */
  readonly env: Readonly<Record<string, string>>;
  stop(): Promise<void>;
}

/**
 * A `geohub up` as a user leaves one running (the built CLI, its own workers), with a state
 * directory of the bench's own: `geohub run` given `env` uses it, and no up of the user's is
 * touched. Stopped as a user stops it (SIGINT), waited for.
 */
export async function startUpDaemon(
  dir: string,
  workers: number,
  extraEnv: Readonly<Record<string, string>> = {},
): Promise<UpDaemon> {
  const state = join(dir, 'up-state');
  mkdirSync(state, { recursive: true });
  const env = {
    ...process.env,
    XDG_STATE_HOME: state,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    ...extraEnv,
  };
  const child = spawn(
    process.execPath,
    [join(projectRoot(), 'bin/geohub.js'), 'up', '--port', '0', '--workers', String(workers), '--json'],
    { env, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // A bench killed alone still stops its up, as a user would (a terminal's Ctrl-C reaches both).
  const forget = onSignalStop(() => child.kill('SIGINT'));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`geohub up exited before it was ready (${code})`)));
  });
  const port = new URL((JSON.parse(line) as { url: string }).url).port;
  return {
    env: { XDG_STATE_HOME: state, GEOHUB_PORT: port },
    async stop() {
      forget();
      child.kill('SIGINT');
      await exited;
    },
  };
}
