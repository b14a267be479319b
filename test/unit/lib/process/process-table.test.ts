import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { descendants, isAlive, processTable } from '../../../../lib/process/process-table.js';

describe('processTable', () => {
  it('sees a child with its parent, its own process group and its arguments', async () => {
    const child = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
    try {
      await new Promise((r) => setTimeout(r, 100));
      const me = processTable().find((p) => p.pid === child.pid);
      expect(me).toMatchObject({ ppid: process.pid, pgid: child.pid, command: 'sleep', args: 'sleep 30' });
      expect(me!.ageSeconds).toBeGreaterThanOrEqual(0);
      expect(me!.ageSeconds).toBeLessThan(10);
      expect(descendants(process.pid)).toContain(child.pid);
    } finally {
      child.kill('SIGKILL');
    }
    await new Promise((r) => child.once('exit', r));
    expect(isAlive(child.pid!)).toBe(false);
  });
});
