import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pricePer1000 } from '../../../bench/support/price.js';
import { type BenchResults, benchTable, olderNote } from '../../../bench/table.js';

// Recorded results (test/fixtures/README.md): the shape `npm run bench` saves in docs/benchmarks.json.
const recorded = (): BenchResults =>
  JSON.parse(readFileSync(new URL('../../fixtures/bench/results.json', import.meta.url), 'utf8'));
const rowOf = (table: string, start: string) => table.split('\n').find((l) => l.startsWith(start)) ?? '';

describe('the benchmark table', () => {
  it('heads the table with the commit, date, machine and load of the run', () => {
    const head = benchTable(recorded()).split('\n')[0]!;
    expect(head).toContain('Measured 2026-12-03 16:39 UTC on commit `70746eb0`,');
    expect(head).toContain('2 × AMD EPYC, 24 GiB, Node v20.20.2, GDAL 3.6.2');
    expect(head).toContain('load average 4.14 (2.66–8.77)');
    expect(head).toContain('`npm run bench` took 1578 s and measured every row');
    const dirty = benchTable({ ...recorded(), dirty: true }).split('\n')[0]!;
    expect(dirty).toContain('`70746eb0` + uncommitted changes');
  });

  it('meets a target only when the raw quotient of the medians does: 7.90 / 9.93 = 0.796 meets ≤ 0.8, 7.95 / 9.93 = 0.801 does not', () => {
    const row = rowOf(benchTable(recorded()), '| same tiles, `xargs -P 2 gdalwarp` (');
    // The second raster's row (Float32, 195 sub-tiles).
    const rows = benchTable(recorded())
      .split('\n')
      .filter((l) => l.startsWith('| same tiles, `xargs -P 2 gdalwarp` ('));
    expect(rows[1]).toContain('9.93 s (9.5–10.4, 3 runs): geohub ×0.390 without start-up, ×0.796 with it');
    expect(rows[1]).toContain('≤ 0.8 with: met (×0.796 ≤ 0.8)');
    expect(row).toBe(rows[0]);

    const slower = recorded();
    const f32 = slower.overhead[1]!;
    const late = {
      ...slower,
      overhead: [
        slower.overhead[0]!,
        { ...f32, geohub: { ...f32.geohub, withStartup: { ...f32.geohub.withStartup, median: 7.95 } } },
      ],
    };
    const missed = benchTable(late)
      .split('\n')
      .filter((l) => l.startsWith('| same tiles, `xargs -P 2 gdalwarp` ('))[1];
    expect(missed).toContain('≤ 0.8 with: **not met** (×0.801 > 0.8)');
  });

  it('compares with gdal2tiles.py both ways, per 1,000 tiles when the counts differ (256 against 289)', () => {
    const rows = benchTable(recorded())
      .split('\n')
      .filter((l) => l.startsWith('| `gdal2tiles.py'));
    // 2.2 s for 256 tiles against 1.97 s for 289: 8.59 against 6.82 s per 1,000, ×1.261; with
    // start-up 21.09 s per 1,000, ×3.094. The unnormalised quotient (×1.12) is not shown.
    expect(rows[0]).toContain('geohub ×1.261 without start-up, ×3.094 with it');
    expect(rows[0]).toContain(
      'per 1,000 tiles (256 against 289): geohub 8.59 s without start-up, 21.09 s with it, against 6.82 s',
    );
    expect(rows[0]).toContain('≤ 1.5 without start-up, per 1,000 tiles: met (×1.261 ≤ 1.5)');
    expect(rows[0]).not.toContain('×1.12');
    // Same counts (195 and 195): the plain quotient of the medians, both ways.
    expect(rows[1]).toContain('geohub ×0.841 without start-up, ×1.717 with it |');
  });

  it('shows the spread of every timing (median, min–max, runs)', () => {
    const table = benchTable(recorded());
    expect(rowOf(table, '| **RGB.byte.tif')).toContain(
      '2.2 s (2.1–2.9, 3 runs) without start-up (stack up, workers polling); `geohub run` from command to exit 5.4 s (5.2–6.1, 3 runs)',
    );
    expect(rowOf(table, '| split + enqueue')).toContain('split 2100 ms (2000–2300, 3 runs)');
  });
});

describe('the collection row', () => {
  it('gives the split of a 10,000-member collection: time with its spread, memory, and the index sizes', () => {
    const collection = {
      members: 10_000,
      latencyMs: 20,
      zoom: 16,
      subTiles: 70_638,
      seconds: { median: 16, min: 15.2, max: 17.1, runs: 3 },
      peakRssMiB: 318,
      rssGrowthMiB: 117,
      collectionManifestBytes: 870_000,
      memberListBytes: 1_450_000,
      manifestBytes: 4_100_000,
      manifestParts: 2,
    };
    const row = rowOf(benchTable({ ...recorded(), collection }), '| split of a collection of 10,000 files');
    expect(row).toContain('70,638 sub-tiles in 16 s (15.2–17.1, 3 runs)');
    expect(row).toContain('peak RSS 318 MiB (+117 MiB)');
    expect(row).toContain('the member list 1.45 MB, the tile manifest (the index: each metatile');
    expect(row).toContain('4.10 MB in 2 parts');
  });
});

describe('the point-cloud and grace rows', () => {
  const pdal = (metatileSeconds: number) => ({
    pdalVersion: '2.8.4',
    inputs: [],
    sizing: {
      assumedPointsPerSecond: 250_000,
      measuredPointsPerSecond: 400_000,
      tilesPerMessage: 2,
      predictedSecondsPerTile: 13,
      measuredSecondsPerTile: metatileSeconds / 2,
      metatileSeconds,
      budgetSeconds: 30,
    },
  });

  it('says a planned metatile is over the budget when the measured pace puts it there', () => {
    const sizing = (s: number) =>
      rowOf(benchTable({ ...recorded(), pdal: pdal(s) }), "| the split's point-cloud sizing");
    expect(sizing(15)).toContain('a metatile takes 15 s, within the budget');
    expect(sizing(31)).toContain('a metatile takes 31 s, **over** the budget');
  });

  it('shows the grace measured through /vsis3/ and from a local copy, with their spread', () => {
    const spread = (median: number) => ({ median, min: median - 1, max: median + 1, runs: 3 });
    const tool = {
      groupDeadMs: spread(500),
      partGoneMs: spread(510),
      claimReleasedMs: spread(520),
      partsWritten: 3,
    };
    const cancel = {
      cooperative: tool,
      stubborn: { ...tool, graceMs: 10_000 },
      grace: { vsis3Ms: spread(40), localMs: spread(25), graceMs: 10_000 },
    };
    const row = rowOf(benchTable({ ...recorded(), cancel }), '| the kill grace, measured');
    expect(row).toContain(
      '40 ms (39–41, 3 runs); local copy 25 ms (24–26, 3 runs) | well under the grace (10 s) |',
    );
  });

  it('judges the requests per sub-tile against their targets, as every other row: met only within them', () => {
    const tiles = 20;
    const counted = {
      requests: {
        'SQS.ReceiveMessageCommand': 4,
        'SQS.SendMessageBatchCommand': 1,
        'SQS.DeleteMessageBatchCommand': 1,
        'DynamoDB.TransactWriteItemsCommand': 4,
        'DynamoDB.UpdateItemCommand': 2,
        'DynamoDB.GetItemCommand': 9,
      },
      s3HttpRequests: { PUT: 20, GET: 4 },
      transitions: 12,
      runSeconds: 10,
      tiles,
      cpu: { stack: 0.6, workers: 0.2 },
    };
    const results = {
      ...recorded(),
      counted,
      cost: pricePer1000(counted.requests, counted.s3HttpRequests, counted.transitions, tiles),
    };
    const row = rowOf(benchTable(results), '| AWS requests per sub-tile');
    // 6 SQS requests and 6 DynamoDB writes over 20 sub-tiles; reads are not writes.
    expect(row).toContain('| SQS 0.30, DynamoDB writes 0.30 ');
    expect(row).toContain(
      '| SQS ≤ 0.1: **not met** (0.30 > 0.1); DynamoDB writes ≤ 0.2: **not met** (0.30 > 0.2); ≤ 1 PUT: met (1.00) |',
    );
    const lean = {
      ...counted,
      requests: { 'SQS.ReceiveMessageCommand': 2, 'DynamoDB.UpdateItemCommand': 4 },
    };
    const leanRow = rowOf(
      benchTable({
        ...results,
        counted: lean,
        cost: pricePer1000(lean.requests, lean.s3HttpRequests, 12, tiles),
      }),
      '| AWS requests per sub-tile',
    );
    expect(leanRow).toContain(
      '| SQS ≤ 0.1: met (0.10); DynamoDB writes ≤ 0.2: met (0.20); ≤ 1 PUT: met (1.00) |',
    );
  });

  it('says when a section was measured by an earlier run than the one the table heads', () => {
    const r = recorded();
    expect(olderNote(r, 'startup')).toBe('');
    const earlier = {
      ...r,
      measured: {
        startup: {
          commit: 'f321ab1357226472a6412385b2a71448cb43c72c',
          dirty: false,
          at: '2026-12-02T00:47:25.307Z',
        },
      },
    } as BenchResults;
    expect(olderNote(earlier, 'startup')).toBe(' *(older: measured 2026-12-02 00:47 UTC on `f321ab13`)*');
  });

  it('counts the stubborn cancel’s runs from its own figures, not the heading run’s', () => {
    const s = (median: number, runs: number) => ({ median, min: median, max: median, runs });
    const c = { groupDeadMs: s(500, 5), partGoneMs: s(510, 5), claimReleasedMs: s(520, 5), partsWritten: 5 };
    const table = benchTable({
      ...recorded(),
      runs: 3,
      cancel: {
        cooperative: c,
        stubborn: { ...c, groupDeadMs: s(10_000, 5), graceMs: 10_000 },
      },
    } as BenchResults);
    expect(rowOf(table, '| same, a tool that ignores SIGTERM')).toContain(
      'it had written its .part in 5 of 5 runs',
    );
  });

  it('states the speed probe the run measured, in its head and in an older section’s note', () => {
    const speed = { median: 2.15, min: 1.66, max: 2.6, runs: 7 };
    const head = benchTable({ ...recorded(), speed }).split('\n')[0]!;
    expect(head).toContain('speed probe 2.15 s (1.66–2.6, 7 runs) (3·10⁸ additions on one core');
    expect(benchTable(recorded()).split('\n')[0]).not.toContain('speed probe');
    const older = {
      ...recorded(),
      measured: {
        startup: {
          commit: 'f321ab1357226472a6412385b2a71448cb43c72c',
          dirty: false,
          at: '2026-12-02T00:47:25.307Z',
          speed,
        },
      },
    } as BenchResults;
    expect(olderNote(older, 'startup')).toBe(
      ' *(older: measured 2026-12-02 00:47 UTC on `f321ab13`, speed probe 2.15 s)*',
    );
  });
});
