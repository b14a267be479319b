import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyFailure } from '../../../../lib/operations/classify-failure.js';
import type { ExtractTileRequest } from '../../../../lib/pointcloud/extract-tile-points.js';
import { extractorCommand } from '../../../../lib/pointcloud/extractor-command.js';
import { ToolExitError } from '../../../../lib/process/errors.js';
import { runProcess } from '../../../../lib/process/run-process.js';
import { fileTempDir } from '../../../support/temp-dir.js';

const AUTZEN = new URL('../../../../examples/pointcloud/autzen_trim.laz', import.meta.url).pathname;
const dir = fileTempDir('geohub-extractor-');
const request = (source: string): ExtractTileRequest => ({
  mode: 'probe',
  sources: [source],
  tile: { z: 17, x: 20727, y: 47634 },
  radius: 10,
  outDir: dir,
});
const run = (r: ExtractTileRequest) => {
  const { file, args } = extractorCommand(r);
  return runProcess(file, args, { timeoutMs: 60_000, graceMs: 2_000 });
};

describe('extractorCommand', () => {
  it('runs the TypeScript entry through tsx under tests, and the built .js as is', () => {
    const ts = extractorCommand(request(AUTZEN), 'file:///app/lib/pointcloud/extractor-command.ts');
    expect(ts.file).toBe(process.execPath);
    expect(ts.args[0]).toBe('--import');
    expect(ts.args.slice(2, 3)).toEqual(['/app/lib/pointcloud/extract-tile-points-main.ts']);
    const js = extractorCommand(request(AUTZEN), 'file:///app/dist/lib/pointcloud/extractor-command.js');
    expect(js.args).toEqual([
      '/app/dist/lib/pointcloud/extract-tile-points-main.js',
      JSON.stringify(request(AUTZEN)),
    ]);
  });

  it('prints one JSON summary line for a readable cloud', async () => {
    const { stdout } = await run(request(AUTZEN));
    expect(JSON.parse(stdout)).toMatchObject({
      inputs: [{ source: AUTZEN, format: 'laz' }],
      selection: 'ground',
    });
  });

  it('exits 65 with a message the worker classifies as a data failure for a file that is not LAS', async () => {
    const bad = join(dir, 'source');
    writeFileSync(bad, 'this is not a point cloud at all');
    const failure = await run(request(bad)).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ToolExitError);
    expect((failure as ToolExitError).exitCode).toBe(65);
    expect((failure as ToolExitError).stderr).toMatch(/^Invalid LAS\/LAZ source \(UnrecognisedFormatError\)/);
    expect(classifyFailure(failure)).toBe('data');
  });

  it('exits 64 for a malformed request', async () => {
    const { file, args } = extractorCommand(request(AUTZEN));
    const failure = await runProcess(file, [...args.slice(0, -1), '{"mode":"rm -rf"}'], {
      timeoutMs: 60_000,
      graceMs: 2_000,
    }).catch((e: unknown) => e);
    expect((failure as ToolExitError).exitCode).toBe(64);
  });
});
