import { describe, expect, it } from 'vitest';
import type { OverheadFigures } from '../../../../bench/overhead.js';
import { overheadRows } from '../../../../bench/support/peer-rows.js';
import { sizeTable } from '../../../../bench/support/size-table.js';

const s = (median: number) => ({ median, min: median, max: median, runs: 3 });

/** One job's figures: geohub cold and on an up against gdal2tiles.py; the raw tool only when given. */
function job(
  tiles: number,
  g2t: { seconds: number; tiles: number },
  cold: number,
  onUp: number,
  raw?: number,
) {
  return {
    raster: `job of ${tiles}`,
    tiles,
    zoom: 12,
    workers: 2,
    geohub: { run: s(cold - 1), withStartup: s(cold), withUp: s(onUp), toolRuns: 2 },
    ...(raw === undefined ? {} : { rawExact: s(raw * 1.2), rawDefault: s(raw) }),
    gdal2tiles: { ...s(g2t.seconds), tiles: g2t.tiles },
    transformer: 'approximate',
    ratios: { vsGdal2tiles: (cold - 1) / g2t.seconds },
    ...(raw === undefined ? {} : { bytesPerTile: { before: 100, after: 80 } }),
  } satisfies OverheadFigures;
}

const rowOf = (table: string, job: string) => table.split('\n').find((l) => l.startsWith(`| ${job},`)) ?? '';

describe('geohub run against gdal2tiles.py by job size', () => {
  const figures = [
    job(4224, { seconds: 18, tiles: 4290 }, 40, 38),
    job(20, { seconds: 0.5, tiles: 20 }, 2.9, 0.9, 0.6),
    job(700, { seconds: 6, tiles: 700 }, 6.3, 5.9, 20),
  ];

  it('lists every size, smallest first, with both whole commands and their ratios', () => {
    const table = sizeTable(figures, 2);
    const jobs = table.split('\n').filter((l) => l.startsWith('| job of'));
    expect(jobs.map((l) => l.split(',')[0])).toEqual(['| job of 20', '| job of 700', '| job of 4224']);
    expect(table).toContain('`gdal2tiles.py --xyz --processes=2`');
    // 40 s for 4,224 tiles against 18 s for 4,290: 9.47 against 4.20 s per 1,000, ×2.257.
    expect(rowOf(table, 'job of 4224')).toContain('| 4224 / 4290 |');
    expect(rowOf(table, 'job of 4224')).toContain('×2.257 (per 1,000 tiles)');
    expect(rowOf(table, 'job of 4224')).toMatch(/\| {2}\|$/);
  });

  it('judges about 500 tiles against 1.0 with start-up, cold and on an up: 6.3/6 is not met, 5.9/6 is', () => {
    const row = rowOf(sizeTable(figures, 2), 'job of 700');
    expect(row).toContain('cold **not met** (×1.050)');
    expect(row).toContain('on a running up met (×0.983)');
  });

  it('judges the small job by its own times: 2.9 s cold met, 0.9 s on an up met', () => {
    expect(rowOf(sizeTable(figures, 2), 'job of 20')).toContain(
      'small job: ≤ 3.0 s cold: met (2.9 s); ≤ 1.0 s on a running up: met (0.9 s)',
    );
  });

  it('says which figures are older', () => {
    expect(sizeTable(figures, 2, ' *(older)*')).toContain('smallest job first *(older)*.');
  });
});

describe('a job timed against the tiler only', () => {
  it('has no raw-tool or bytes rows, and says why', () => {
    const rows = overheadRows(job(4224, { seconds: 18, tiles: 4290 }, 40, 38), 2, '');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain('against the tiler only');
    expect(rows[1]).toContain('`gdal2tiles.py --xyz -z 12 --processes=2`');
    expect(rows.join('\n')).not.toContain('xargs');
  });

  it('keeps all four rows where the raw tool was run', () => {
    const rows = overheadRows(job(700, { seconds: 6, tiles: 700 }, 6.3, 5.9, 20), 2, '');
    expect(rows).toHaveLength(5);
    expect(rows[0]).not.toContain('against the tiler only');
  });
});
