import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { benchmarksDoc } from '../../../bench/benchmarks-doc.js';
import { mergeSections } from '../../../bench/support/sections.js';
import { type BenchResults, benchTable } from '../../../bench/table.js';

const recorded = (): BenchResults =>
  JSON.parse(readFileSync(new URL('../../fixtures/bench/results.json', import.meta.url), 'utf8'));

/** A later `--only split` run on another commit. */
function splitOnly(): BenchResults {
  const at = '2026-12-04T18:00:00.000Z';
  const p = { commit: 'bbbbbbbb00000000000000000000000000000000', dirty: true, at };
  const r = recorded();
  return {
    ...r,
    ...p,
    only: ['split'],
    totalSeconds: undefined,
    measured: { split: p },
    overhead: [],
    split: { ...r.split!, splitMs: { median: 1500, min: 1400, max: 1600, runs: 3 } },
  };
}

describe('a partial re-measure (--only) states which rows are older, and from which commit', () => {
  it('keeps the rows it did not measure, with their own commit and date, and marks them older', () => {
    const merged = mergeSections(recorded(), splitOnly(), ['split']);
    expect(merged.overhead).toEqual(recorded().overhead);
    expect(merged.split?.splitMs.median).toBe(1500);
    expect(merged.measured?.overhead?.commit).toBe('70746eb0000000000000000000000000000000aa');
    expect(merged.measured?.split?.commit).toBe('bbbbbbbb00000000000000000000000000000000');

    const table = benchTable(merged);
    const lines = table.split('\n');
    expect(lines[0]).toContain('Measured 2026-12-04 18:00 UTC on commit `bbbbbbbb` + uncommitted changes');
    expect(lines[0]).toContain('`npm run bench -- --only split` re-measured those rows');
    const byte = lines.find((l) => l.startsWith('| **RGB.byte.tif'))!;
    expect(byte).toContain('*(older: measured 2026-12-03 16:39 UTC on `70746eb0`)*');
    const split = lines.find((l) => l.startsWith('| split + enqueue'))!;
    expect(split).not.toContain('older');
    expect(split).toContain('split 1500 ms (1400–1600, 3 runs)');
  });

  it('a whole run marks no row older', () => {
    expect(benchTable(recorded())).not.toContain('older');
  });
});

describe('docs/benchmarks.md', () => {
  it('is the table, the notes and the tried-and-not-kept list verbatim, with no figure outside the table', () => {
    const tried = readFileSync(new URL('../../../bench/tried-and-not-kept.md', import.meta.url), 'utf8');
    const doc = benchmarksDoc(recorded(), tried);
    expect(doc.startsWith('# Benchmarks\n')).toBe(true);
    expect(doc).toContain(benchTable(recorded()));
    expect(doc).toContain(`## Tried and not kept\n\n${tried.trim()}\n`);
    // Between the table and the list, prose only: every figure of the run is in the table.
    const notes = doc.slice(
      doc.indexOf('## How the rows are measured'),
      doc.indexOf('## Tried and not kept'),
    );
    expect(notes).not.toMatch(/\d+(\.\d+)? (s|ms|MiB|%)\b/);
  });
});
