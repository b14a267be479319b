import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { groundGrid, lasBytes } from '../support/las-bytes.js';
import { processMark } from '../support/marked-processes.js';
import { tempDir } from '../support/temp-dir.js';

describe('what PDAL cannot read, with PDAL on PATH (the engine `auto` then picks)', () => {
  it.each([
    ['LAZ', true],
    ['LAS', false],
  ])(
    'a %s of point format 10: `geohub run` refuses it at the split naming the format, nothing queued',
    async (_kind, laz) => {
      const dir = tempDir('geohub-wave-');
      const source = join(dir, laz ? 'wave.laz' : 'wave.las');
      writeFileSync(
        source,
        lasBytes({ minor: 4, format: 10, points: groundGrid(500_000, 4_000_000, 10, 1), epsg: 32610, laz }),
      );
      const mark = processMark();
      const r = await runCli(['run', source, '--out', join(dir, 'out'), '--json'], {
        ...mark.env,
        TMPDIR: dir,
      });
      expect(r.code, r.stderr).not.toBe(0);
      const summary = JSON.parse(r.stdout) as { status: string; reason: string; tiles: { total: number } };
      expect(summary.status).toBe('FAILED');
      // PDAL's own words and the point format, not a dead-letter count.
      expect(summary.reason).toContain('does not read point format 10');
      expect(summary.reason).toContain('readers.las: Unsupported LAS input point format: 10.');
      expect(summary.reason).not.toMatch(/dead-letter|unaccounted/);
      // Refused before fan-out: not one sub-tile was planned, so none could reach the DLQ.
      expect(summary.tiles.total).toBe(0);
      expect(mark.live()).toEqual([]);
    },
  );
});
