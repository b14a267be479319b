import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ToolCancelledError,
  ToolExitError,
  ToolStartError,
  ToolTimeoutError,
} from '../../../lib/process/errors.js';
import { processTable } from '../../../lib/process/process-table.js';
import { runProcess } from '../../../lib/process/run-process.js';
import { fileTempDir } from '../../support/temp-dir.js';
import { waitUntil } from '../../support/wait-until.js';

const dir = fileTempDir('geohub-proc-');
function script(name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

/** Every process of the group, zombies aside: what a cancellation must leave at zero. */
const groupMembers = (pgid: number) => processTable().filter((p) => p.pgid === pgid && p.state !== 'Z');

// Long enough that a child that ignored SIGTERM could not end before it, even on a loaded machine.
const GRACE_FOR_COOPERATIVE_MS = 20_000;

describe('runProcess: the child runs in its own group and dies with it', () => {
  it('returns output of a successful run', async () => {
    const r = await runProcess('sh', ['-c', 'echo out; echo err >&2'], { timeoutMs: 5_000, graceMs: 1_000 });
    expect(r.stdout).toBe('out');
    expect(r.stderr).toBe('err');
  });

  it('reports a failing tool with its exit code and stderr', async () => {
    const error = await runProcess('sh', ['-c', 'echo "bad input" >&2; exit 3'], {
      timeoutMs: 5_000,
      graceMs: 1_000,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolExitError);
    expect((error as ToolExitError).exitCode).toBe(3);
    expect((error as Error).message).toContain('bad input');
  });

  it('says clearly when the tool is not installed', async () => {
    await expect(
      runProcess('no-such-tool-geohub', [], { timeoutMs: 1_000, graceMs: 100 }),
    ).rejects.toBeInstanceOf(ToolStartError);
  });

  it('on timeout kills the whole group, helpers included, before it settles', async () => {
    // A parent with a helper child, both sleeping: the helper is what proc.kill() would miss.
    const tool = script('parent.sh', 'sleep 600 &\nsleep 600\n');
    let pgid = 0;
    const error = await runProcess(tool, [], {
      timeoutMs: 300,
      graceMs: 2_000,
      onSpawn: (pid) => {
        pgid = pid;
      },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolTimeoutError);
    expect(groupMembers(pgid)).toEqual([]);
    expect(processTable().filter((p) => p.args === 'sleep 600' && p.pgid === pgid)).toEqual([]);
  });

  it('on cancellation terminates the group and carries the reason', async () => {
    const controller = new AbortController();
    let pgid = 0;
    const pending = runProcess('sleep', ['600'], {
      signal: controller.signal,
      timeoutMs: 60_000,
      graceMs: GRACE_FOR_COOPERATIVE_MS,
      onSpawn: (pid) => {
        pgid = pid;
      },
    }).catch((e: unknown) => e);
    // Started (its group exists), not a fixed 100 ms that a loaded machine may not start it in.
    expect(await waitUntil(() => pgid !== 0, 30_000, 10)).toBe(true);
    const t0 = Date.now();
    controller.abort('run cancelled');
    const error = await pending;
    expect(error).toBeInstanceOf(ToolCancelledError);
    expect((error as ToolCancelledError).reason).toBe('run cancelled');
    // sleep honours SIGTERM: it ends long before the grace period would have SIGKILLed it.
    expect(Date.now() - t0).toBeLessThan(GRACE_FOR_COOPERATIVE_MS);
    expect(groupMembers(pgid)).toEqual([]);
  });

  it('a child that traps SIGTERM dies at about the grace period, not later', async () => {
    const stubborn = script('stubborn.sh', "trap '' TERM\nsleep 600 &\nwait\nsleep 600\n");
    const graceMs = 1_500;
    let pgid = 0;
    const started = Date.now();
    const error = await runProcess(stubborn, [], {
      timeoutMs: 300,
      graceMs,
      onSpawn: (pid) => {
        pgid = pid;
      },
    }).catch((e: unknown) => e);
    const elapsed = Date.now() - started;
    expect(error).toBeInstanceOf(ToolTimeoutError);
    expect(elapsed).toBeGreaterThanOrEqual(300 + graceMs);
    // Not later: the child would sleep for ten minutes; the slack is for a loaded machine.
    expect(elapsed).toBeLessThan(300 + graceMs + 15_000);
    expect(groupMembers(pgid)).toEqual([]);
  });

  it('kills helpers left behind by a leader that exited', async () => {
    const leaver = script('leaver.sh', 'sleep 600 &\nexit 0\n');
    let pgid = 0;
    await runProcess(leaver, [], {
      timeoutMs: 5_000,
      graceMs: 1_000,
      onSpawn: (pid) => {
        pgid = pid;
      },
    });
    expect(groupMembers(pgid)).toEqual([]);
  });
});
