import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findDebris } from '../../../../local/server/debris.js';
import { tempDir } from '../../../support/temp-dir.js';

function part(scratch: string, runId: string, name: string): string {
  const dir = join(scratch, 'out', runId, '4', '4');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, 'partial');
  return path;
}

describe('findDebris', () => {
  it("reports a run's .part files and not those of another run in flight on the same workers", () => {
    const scratch = tempDir('geohub-debris-');
    const mine = part(scratch, 'r-aaaaaaaaaaaaaaaaaaaa', '6.tif.1.part');
    const theirs = part(scratch, 'r-bbbbbbbbbbbbbbbbbbbb', '6.tif.2.part');
    writeFileSync(join(scratch, 'out', 'r-aaaaaaaaaaaaaaaaaaaa', '4', '4', '7.tif'), 'done');
    expect(findDebris([], [scratch], process.pid, 'r-aaaaaaaaaaaaaaaaaaaa').parts).toEqual([mine]);
    expect(findDebris([], [scratch], process.pid).parts.sort()).toEqual([mine, theirs].sort());
  });

  it('a run id that is only a prefix of a directory name does not match it', () => {
    const scratch = tempDir('geohub-debris-');
    part(scratch, 'r-aaaaaaaaaaaaaaaaaaaa-x', '6.tif.1.part');
    expect(findDebris([], [scratch], process.pid, 'r-aaaaaaaaaaaaaaaaaaaa').parts).toEqual([]);
  });
});
