import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRasterGrid } from '../../../../lib/pointcloud/read-raster-grid.js';
import { fileTempDir } from '../../../support/temp-dir.js';
import { baselineTags, tiffBytes } from '../../../support/tiff-bytes.js';

const dir = fileTempDir('geohub-grid-');
const write = (name: string, bytes: Uint8Array) => {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
};

describe('readRasterGrid', () => {
  it('reads a north-up grid from ModelPixelScale and ModelTiepoint', async () => {
    const path = write(
      'north.tif',
      tiffBytes([
        ...baselineTags(256, 256),
        { tag: 33550, type: 'DOUBLE', values: [1.5, 1.5, 0] },
        { tag: 33922, type: 'DOUBLE', values: [0, 0, 0, -100, 200, 0] },
      ]),
    );
    expect(await readRasterGrid(path)).toEqual({
      width: 256,
      height: 256,
      geoTransform: [-100, 1.5, 0, 200, 0, -1.5],
    });
  });

  it('reads a south-up grid from ModelTransformation with its positive row step', async () => {
    const path = write(
      'south.tif',
      tiffBytes([
        ...baselineTags(256, 256),
        { tag: 34264, type: 'DOUBLE', values: [1.5, 0, 0, -100, 0, 1.5, 0, -184, 0, 0, 0, 0, 0, 0, 0, 1] },
      ]),
    );
    expect(await readRasterGrid(path)).toEqual({
      width: 256,
      height: 256,
      geoTransform: [-100, 1.5, 0, -184, 0, 1.5],
    });
  });

  it('fails on a TIFF without georeferencing', async () => {
    await expect(readRasterGrid(write('plain.tif', tiffBytes(baselineTags(4, 4))))).rejects.toThrow(
      /no affine georeferencing/,
    );
  });
});
