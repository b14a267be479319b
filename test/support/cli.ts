import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { processMark } from './marked-processes.js';
import { tempDir } from './temp-dir.js';

const BIN = fileURLToPath(new URL('../../bin/geohub.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Starts the built CLI (`bin/geohub.js`, as `npx geohub` does) in the repository root. */
export function startCli(
  args: readonly string[],
  env: Record<string, string> = {},
  options: { detached?: boolean; cwd?: string } = {},
): {
  child: ChildProcess;
  done: Promise<CliResult>;
} {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? ROOT,
    // Never the developer's own `geohub up`: a test that wants one says so (GEOHUB_STANDALONE: '').
    env: { ...process.env, GEOHUB_STANDALONE: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // In a process group of its own, as a terminal's foreground job: `kill -INT -- -pid` is Ctrl-C.
    detached: options.detached ?? false,
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  const done = new Promise<CliResult>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done };
}

export function runCli(
  args: readonly string[],
  env: Record<string, string> = {},
  options: { cwd?: string } = {},
): Promise<CliResult> {
  return startCli(args, env, options).done;
}

export const GEOHUB_BIN = BIN;

/**
 * `geohub <args>` as a user runs it, checked on every exit path: nothing it started is left
 * running, and its temporary directory is left empty.
 */
export async function runCliLeavingNothing(
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<CliResult> {
  const tmp = tempDir('geohub-tmp-');
  const mark = processMark();
  const r = await runCli(args, { ...env, ...mark.env, TMPDIR: tmp });
  expect(mark.live()).toEqual([]);
  expect(readdirSync(tmp)).toEqual([]);
  return r;
}
