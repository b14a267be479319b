import { describe, expect, it } from 'vitest';
import { ToolCancelledError } from '../../lib/process/errors.js';
import { isAlive } from '../../lib/process/process-table.js';
import { dtmTile, realTools, tilesOver } from '../support/pdal-tile.js';

const AUTZEN = new URL('../../examples/pointcloud/autzen_trim.laz', import.meta.url).pathname;

describe('a cancel while a real `pdal pipeline` runs', () => {
  it('ends the attempt with ToolCancelledError and leaves no PDAL process behind', async () => {
    const [tile] = tilesOver(AUTZEN, 17);
    const started: { file: string; pid: number }[] = [];
    const controller = new AbortController();
    const tools = realTools(started, controller.signal);
    // Cancel the moment PDAL itself is running (not the extractor before it).
    const withPdal: typeof tools = {
      run: (file, args) => {
        const running = tools.run(file, args);
        if (file === 'pdal') {
          const poll = setInterval(() => {
            if (started.some((s) => s.file === 'pdal')) {
              clearInterval(poll);
              controller.abort(new Error('run cancelled'));
            }
          }, 10);
          void running.finally(() => clearInterval(poll)).catch(() => undefined);
        }
        return running;
      },
    };
    const error = await dtmTile('pdal', AUTZEN, { z: 17, ...tile! }, withPdal).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error).toBeInstanceOf(ToolCancelledError);
    const pdal = started.filter((s) => s.file === 'pdal');
    expect(pdal).toHaveLength(1);
    // Its whole process group was killed before the attempt settled.
    expect(started.filter(({ pid }) => isAlive(pid))).toEqual([]);
    expect(() => process.kill(-pdal[0]!.pid, 0)).toThrow();
  });
});
