import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { largeRaster } from '../support/large-raster.js';
import { processMark } from '../support/marked-processes.js';
import { tempDir } from '../support/temp-dir.js';

describe('uploads of any size go by multipart with a progress bar (issue 20 #5; the >4 GB run: npm run bench:large)', () => {
  it('a 50 MB raster goes up in parts, with progress, and the run succeeds', async () => {
    const dir = tempDir('geohub-large-');
    const file = largeRaster(dir, 5_000);
    const bytes = statSync(file).size;
    expect(bytes).toBeGreaterThan(48 * 1024 * 1024); // four 16 MiB parts at least
    const tmp = tempDir('geohub-tmp-');
    const mark = processMark();
    const r = await runCli(['run', file, '--out', `${dir}/out`, '--zoom', '6', '--json'], {
      ...mark.env,
      TMPDIR: tmp,
    });
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout) as { status: string; upload: { bytes: number; parts: number } };
    // Four 16 MiB parts, each acknowledged by S3 with its ETag (one PUT would report none).
    expect(summary).toMatchObject({
      status: 'SUCCEEDED',
      upload: { bytes, parts: Math.ceil(bytes / 2 ** 24) },
    });
    expect(summary.upload.parts).toBeGreaterThanOrEqual(4);
    const mb = Math.round(bytes / 1024 / 1024);
    expect(r.stderr).toContain(`uploading: ${mb}/${mb} MB`);
    expect(mark.live()).toEqual([]);
  });
});
