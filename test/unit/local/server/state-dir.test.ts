import { chmodSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStateDir } from '../../../../local/server/state-dir.js';
import { tempDir } from '../../../support/temp-dir.js';

const refusal = (dir: string, why: string) =>
  `${dir} ${why}: refusing to keep geohub up's secret there (point XDG_RUNTIME_DIR at a directory only you can write)`;

describe('openStateDir (issue 34 #4)', () => {
  it('makes the directory 0700 and writes through its descriptor', async () => {
    const runtime = tempDir('geohub-state-');
    mkdirSync(join(runtime, 'geohub'), { mode: 0o755 });
    chmodSync(join(runtime, 'geohub'), 0o755);
    const dir = await openStateDir({ XDG_RUNTIME_DIR: runtime });
    try {
      writeFileSync(dir.path('x.json'), 'x');
    } finally {
      await dir.close();
    }
    expect(statSync(join(runtime, 'geohub')).mode & 0o777).toBe(0o700);
    expect(readFileSync(join(runtime, 'geohub', 'x.json'), 'utf8')).toBe('x');
  });

  it('refuses a link to a directory of the same user, and leaves its target as it was', async () => {
    const runtime = tempDir('geohub-state-');
    const target = tempDir('geohub-target-');
    chmodSync(target, 0o755);
    symlinkSync(target, join(runtime, 'geohub'));
    await expect(openStateDir({ XDG_RUNTIME_DIR: runtime })).rejects.toThrow(
      refusal(join(runtime, 'geohub'), 'is a symbolic link'),
    );
    expect(statSync(target).mode & 0o777).toBe(0o755);
  });

  it('refuses a file where the directory should be', async () => {
    const runtime = tempDir('geohub-state-');
    writeFileSync(join(runtime, 'geohub'), '');
    await expect(openStateDir({ XDG_RUNTIME_DIR: runtime })).rejects.toThrow(
      refusal(join(runtime, 'geohub'), 'is not a directory'),
    );
  });
});
