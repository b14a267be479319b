import { describe, expect, it } from 'vitest';

// A browser module (no types): loaded by its URL, as the page loads it.
const FORMAT = new URL('../../../../../../local/server/page/assets/format.js', import.meta.url).href;
const { sourceLabel } = (await import(FORMAT)) as { sourceLabel: (run: object) => string };

describe('the page names a run’s source', () => {
  it('a single file by its name', () => {
    expect(sourceLabel({ source: { key: 'incoming/1700000000000123/RGB.byte.tif' } })).toBe('RGB.byte.tif');
  });

  it('a collection by its files: counted, the first named, the skipped said', () => {
    const run = {
      source: { key: 'incoming/1/survey.collection.json' },
      collection: { members: 7, skipped: 1, names: ['a.tif', 'b.tif', 'c.tif', 'd.tif', 'e.tif'] },
    };
    expect(sourceLabel(run)).toBe(
      'a collection of 7 files (a.tif, b.tif, c.tif, d.tif, e.tif, … 2 more); 1 skipped',
    );
  });
});
