import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { type CliResult, runCli } from './cli.js';
import { processMark } from './marked-processes.js';
import { startUp, type UpSession } from './up-session.js';

/**
 * A `geohub up` of one test file, started in a directory of its own (temp dir, runtime dir for
 * its secret, data the tests put there) with a process mark; stopped after the tests, and
 * checked: nothing of it left running, no temporary entry, the secret gone.
 */
export interface HostileUp {
  /** The file's own directory: `tmp`, `runtime` (0700) and `data` (world-readable) in it. */
  base: string;
  up: UpSession;
  mark: ReturnType<typeof processMark>;
  env: Record<string, string>;
  /** `geohub <args> --port <up's> --json` as the user who started up. */
  cli(...args: string[]): Promise<CliResult>;
}

export function useHostileUp(): HostileUp {
  const session = {
    cli: (...args: string[]) => runCli([...args, '--port', session.up.port, '--json'], session.env),
  } as HostileUp;
  beforeAll(async () => {
    const base = mkdtempSync(join(tmpdir(), 'geohub-hostile-'));
    session.base = base;
    chmodSync(base, 0o755); // `nobody` may reach the world-readable files the tests put here
    for (const d of ['tmp', 'runtime', 'data']) mkdirSync(join(base, d), { mode: 0o755 });
    chmodSync(join(base, 'runtime'), 0o700);
    session.mark = processMark();
    session.env = { ...session.mark.env, TMPDIR: join(base, 'tmp'), XDG_RUNTIME_DIR: join(base, 'runtime') };
    session.up = await startUp(session.env);
  });
  afterAll(async () => {
    const { base, up, mark } = session;
    try {
      if (up && up.child.exitCode === null && up.child.signalCode === null) up.child.kill('SIGINT');
      await up?.done;
      expect(mark.live()).toEqual([]);
      expect(readdirSync(join(base, 'tmp'))).toEqual([]);
      expect(readdirSync(join(base, 'runtime', 'geohub'))).toEqual([]); // the secret goes with it
    } finally {
      if (base) rmSync(base, { recursive: true, force: true });
    }
  });
  return session;
}
