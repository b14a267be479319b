import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkWorkersCanDecode, unreadableBy } from '../../../../lib/pointcloud/engine-point-formats.js';
import { readPointFormat } from '../../../../lib/pointcloud/read-point-format.js';
import { UnsupportedSourceError } from '../../../../lib/source/errors.js';
import type { PointCloudHeader } from '../../../../lib/source/source-header.js';
import { groundGrid, lasBytes } from '../../../support/las-bytes.js';
import { pointCloudHeader } from '../../../support/point-cloud-header.js';
import { tempDir } from '../../../support/temp-dir.js';

const header = (format: PointCloudHeader['format'], pointFormat: number) =>
  pointCloudHeader({ format, pointFormat });

describe('what each point-cloud engine reads', () => {
  const ALL = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
  it('local: every format as plain LAS, LAZ only without waveform packets (4, 5, 9, 10)', () => {
    expect(ALL.filter((f) => unreadableBy('local', 'laz', f))).toEqual([4, 5, 9, 10]);
    expect(ALL.filter((f) => unreadableBy('local', 'las', f))).toEqual([]);
  });
  it('PDAL 2.8.4: formats 0–3 and 6–8 in every form, never the waveform ones', () => {
    for (const form of ['las', 'laz', 'copc'] as const)
      expect(ALL.filter((f) => unreadableBy('pdal', form, f))).toEqual([4, 5, 9, 10]);
  });

  it("is refused at split, in one line naming the file, the point format and the tool's own reason", () => {
    for (const pointFormat of [4, 5, 9, 10]) {
      const local = () => checkWorkersCanDecode(header('laz', pointFormat), 'local', 'wave.laz');
      expect(local).toThrow(UnsupportedSourceError);
      expect(local).toThrow(
        new RegExp(
          `^wave\\.laz cannot be read here: [^\\n]*laz-perf[^\\n]*point format ${pointFormat}[^\\n]*$`,
        ),
      );
      // PDAL reads them in no form: not even as plain LAS, so the advice is never "use PDAL".
      for (const form of ['laz', 'las'] as const) {
        const pdal = () => checkWorkersCanDecode(header(form, pointFormat), 'pdal', `wave.${form}`);
        expect(pdal).toThrow(`Unsupported LAS input point format: ${pointFormat}.`);
        expect(pdal).not.toThrow(/use PDAL|where PDAL is installed/);
      }
      expect(() => checkWorkersCanDecode(header('las', pointFormat), 'local', 'wave.las')).not.toThrow();
    }
    expect(() => checkWorkersCanDecode(header('copc', 6), 'local', 'x.copc.laz')).not.toThrow();
    expect(() => checkWorkersCanDecode(header('copc', 6), 'pdal', 'x.copc.laz')).not.toThrow();
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
