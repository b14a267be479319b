import { describe, expect, it } from 'vitest';
import type { ProcessInfo } from '../../../lib/process/process-table.js';
import { selfCheck } from '../../../worker/self-check.js';
import { tempDir } from '../../support/temp-dir.js';

const proc = (pid: number, ppid: number, command: string, ageSeconds = 1_000): ProcessInfo => ({
  pid,
  ppid,
  pgid: pid,
  state: 'S',
  ageSeconds,
  command,
  args: command,
});

describe('the self-check on a machine shared with sibling workers (issue 35)', () => {
  // init 1 → pool 10 → worker A 20 → its engine 21 (busy for 1,000 s); a dead worker's engine 31.
  const table = [
    proc(1, 0, 'init'),
    proc(10, 1, 'node'),
    proc(20, 10, 'node'),
    proc(21, 20, 'gdal-metatile'),
    proc(31, 1, 'gdal-metatile'),
  ];
  const owners = new Map([
    [21, 20],
    [31, 30],
  ]);
  const check = (processes: readonly ProcessInfo[]) =>
    selfCheck({
      scratchDir: tempDir('geohub-check-'),
      maxToolAgeSeconds: 120,
      processes: () => processes,
      ownerOf: (pid) => owners.get(pid),
    });

  it("passes a sibling's live engine older than the orphan age", async () => {
    expect(await check(table.slice(0, 4))).toEqual([]);
  });

  it('refuses the engine a dead worker left behind, and only that one', async () => {
    const problems = await check(table);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^orphaned gdal-metatile process 31 running for 1000 s/);
  });
});
