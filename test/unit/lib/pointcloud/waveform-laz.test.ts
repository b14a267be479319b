import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPointFormat } from '../../../../lib/pointcloud/read-point-format.js';
import { beyondLazPerf, checkWorkersCanDecode } from '../../../../lib/pointcloud/waveform-laz.js';
import { UnsupportedSourceError } from '../../../../lib/source/errors.js';
import type { PointCloudHeader } from '../../../../lib/source/source-header.js';
import { groundGrid, lasBytes } from '../../../support/las-bytes.js';
import { pointCloudHeader } from '../../../support/point-cloud-header.js';
import { tempDir } from '../../../support/temp-dir.js';

const header = (format: PointCloudHeader['format'], pointFormat: number) =>
  pointCloudHeader({ format, pointFormat });

describe('waveform LAZ', () => {
  it('is LAZ of formats 4, 5, 9 and 10 only: plain LAS of those formats and other LAZ decode locally', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10].filter((f) => beyondLazPerf('laz', f))).toEqual([4, 5, 9, 10]);
    expect([4, 5, 9, 10].some((f) => beyondLazPerf('las', f))).toBe(false);
  });

  it('is refused at split, in one line naming the file, only when the workers run the local engine', () => {
    for (const pointFormat of [4, 5, 9, 10]) {
      const check = () => checkWorkersCanDecode(header('laz', pointFormat), 'local', 'wave.laz');
      expect(check).toThrow(UnsupportedSourceError);
      expect(check).toThrow(
        new RegExp(
          `^wave\\.laz is LAZ with point format ${pointFormat} \\(waveform packets\\)[^\\n]*PDAL[^\\n]*$`,
        ),
      );
      expect(() => checkWorkersCanDecode(header('laz', pointFormat), 'pdal', 'wave.laz')).not.toThrow();
      expect(() => checkWorkersCanDecode(header('las', pointFormat), 'local', 'wave.las')).not.toThrow();
    }
    expect(() => checkWorkersCanDecode(header('copc', 6), 'local', 'x.copc.laz')).not.toThrow();
  });

  it("reads the format byte of a local file, compression bit included; nothing for a file that isn't LAS", async () => {
    const dir = tempDir('geohub-wave-');
    const bytes = lasBytes({ minor: 3, format: 5, points: groundGrid(0, 0, 2, 1), epsg: 32610 });
    writeFileSync(join(dir, 'plain.las'), bytes);
    expect(await readPointFormat(join(dir, 'plain.las'))).toEqual({ compressed: false, pointFormat: 5 });
    bytes[104]! |= 0x80;
    writeFileSync(join(dir, 'wave.laz'), bytes);
    expect(await readPointFormat(join(dir, 'wave.laz'))).toEqual({ compressed: true, pointFormat: 5 });
    writeFileSync(
      join(dir, 'not.las'),
      'II*\0 a TIFF, not a point cloud at all, long enough to hold 105 bytes'.repeat(3),
    );
    expect(await readPointFormat(join(dir, 'not.las'))).toBeUndefined();
    expect(await readPointFormat(join(dir, 'missing.laz'))).toBeUndefined();
  });
});
