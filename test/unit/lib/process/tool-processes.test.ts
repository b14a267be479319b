import { describe, expect, it } from 'vitest';
import { isToolProcess } from '../../../../lib/process/tool-processes.js';

describe('isToolProcess', () => {
  it.each([
    ['gdalwarp', 'S', true],
    ['gdal_translate', 'R', true],
    ['gdal-metatile', 'S', true],
    ['ogr2ogr', 'S', true],
    ['pdal', 'D', true],
    ['geohub-pointclo', 'S', true],
    ['gdalwarp', 'Z', false],
    ['node', 'S', false],
    ['java', 'S', false],
    ['python3', 'S', false],
    ['mygdalwarp', 'S', false],
  ])('%s in state %s: %s', (command, state, tool) => {
    expect(isToolProcess({ command, state })).toBe(tool);
  });
});
