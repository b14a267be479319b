import { describe, expect, it } from 'vitest';
import { chooseGroundSelection } from '../../../../lib/pointcloud/choose-ground-selection.js';
import { classCounts, pdalClassProbe } from '../../../../lib/pointcloud/pdal-class-probe.js';

describe('PDAL class probe', () => {
  it('reads, crops to the buffered tile in EPSG:3857 and counts Classification', () => {
    const { pipeline } = pdalClassProbe('/s/wave.laz', { minX: 0, minY: 1, maxX: 2, maxY: 3 });
    expect(pipeline).toEqual([
      { type: 'readers.las', filename: '/s/wave.laz' },
      { type: 'filters.crop', bounds: '([0, 2], [1, 3])', a_srs: 'EPSG:3857' },
      { type: 'filters.stats', dimensions: 'Classification', count: 'Classification' },
    ]);
  });

  it('reads the "value/count" pairs of PDAL metadata into a histogram; no points, no counts', () => {
    const metadata = (counts: unknown) => ({
      stages: {
        'readers.las': { count: 9 },
        'filters.stats': { statistic: [{ name: 'Classification', counts }] },
      },
    });
    const counts = classCounts(metadata(['1.000000/5', '2.000000/4']));
    expect([counts[1], counts[2], counts.reduce((a, b) => a + b, 0)]).toEqual([5, 4, 9]);
    expect(chooseGroundSelection(counts)).toBe('ground');
    // A one-element list may be written as the element itself.
    expect(classCounts(metadata('0.000000/7'))[0]).toBe(7);
    expect(
      classCounts({ stages: { 'filters.stats': { statistic: { name: 'Classification', count: 0 } } } }),
    ).toEqual(new Float64Array(256));
    expect(classCounts(undefined)).toEqual(new Float64Array(256));
  });
});
