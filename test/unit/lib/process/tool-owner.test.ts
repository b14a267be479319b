import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { ProcessInfo } from '../../../../lib/process/process-table.js';
import { isOrphan, TOOL_OWNER_ENV, toolOwner } from '../../../../lib/process/tool-owner.js';

const proc = (pid: number, ppid: number, state = 'S'): ProcessInfo => ({
  pid,
  ppid,
  pgid: pid,
  state,
  ageSeconds: 1_000,
  command: 'gdal-metatile',
  args: '',
});

describe('telling an orphan from a live worker’s tool (issue 35)', () => {
  // init 1 → pool 10 → worker A 20 → engine 21; worker B 30.
  const table = [proc(1, 0), proc(10, 1), proc(20, 10), proc(21, 20), proc(30, 10)];

  it('a tool whose owner is alive and its ancestor is not an orphan, however old', () => {
    expect(isOrphan(table[3]!, 20, table)).toBe(false);
    // Through a helper in between (a shell, GDAL's own child) too.
    expect(isOrphan(proc(22, 21), 20, [...table, proc(22, 21)])).toBe(false);
  });

  it('a tool whose owner died is one: reparented, or its owner a zombie', () => {
    expect(isOrphan(proc(21, 1), 20, [proc(1, 0), proc(21, 1)])).toBe(true);
    expect(isOrphan(table[3]!, 20, [proc(1, 0), proc(10, 1), proc(20, 10, 'Z'), proc(21, 20)])).toBe(true);
    // Its owner's PID reused by a process that is not its ancestor.
    expect(isOrphan(proc(21, 1), 30, [...table.slice(0, 3), proc(21, 1), proc(30, 10)])).toBe(true);
  });

  it('an unmarked tool is someone else’s: an orphan only once init adopted it', () => {
    expect(isOrphan(proc(40, 30), undefined, table)).toBe(false);
    expect(isOrphan(proc(40, 1), undefined, table)).toBe(true);
  });

  it('reads the owner mark from a live process’s environment', async () => {
    const child = spawn('sleep', ['30'], { env: { ...process.env, [TOOL_OWNER_ENV]: '4242' } });
    try {
      await new Promise((r) => child.once('spawn', r));
      expect(toolOwner(child.pid!)).toBe(4242);
      expect(toolOwner(process.pid)).toBeUndefined();
    } finally {
      child.kill('SIGKILL');
    }
  });
});
