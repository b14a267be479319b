import { describe, expect, it } from 'vitest';
import { startupTable } from '../../../bench/startup-table.js';

const s = (median: number, runs = 3) => ({ median, min: median - 10, max: median + 10, runs });

describe('the start-up profile table', () => {
  it('gives each event its time on both ways of running, ordered, marked where it held the exit', () => {
    const table = startupTable({
      job: 'RGB.byte.tif',
      tiles: 20,
      cold: {
        seconds: s(2.9),
        events: { 'cli: process start': s(0), 'emulator dynamodb: ready': s(1_500), 'cli: done': s(2_900) },
        critical: { 'cli: process start': 3, 'emulator dynamodb: ready': 2, 'cli: done': 3 },
      },
      onUp: {
        seconds: s(1),
        events: { 'cli: process start': s(0), 'cli: done': s(1_000) },
        critical: { 'cli: process start': 3, 'cli: done': 3 },
      },
    });
    const lines = table.split('\n').filter((l) => l.startsWith('| `'));
    expect(lines.map((l) => l.split('`')[1])).toEqual([
      'cli: process start',
      'emulator dynamodb: ready',
      'cli: done',
    ]);
    expect(lines[1]).toContain('1500 (1490–1510) ● 2/3');
    expect(lines[1]).toContain('| — |'); // no JVM to wait for on a running up
    expect(lines[2]).toContain('2900 (2890–2910) **●** | 1000 (990–1010) **●** |');
  });
});
