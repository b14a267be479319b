import { findExecutable } from '../pointcloud/find-executable.js';
import { InvalidOperationParamsError } from './errors.js';

/** `pdal`: one PDAL pipeline per tile (the container image). `local`: laz-perf + gdal_grid. */
export type PointcloudEngine = 'pdal' | 'local';

/** Overrides the engine choice (`pdal`, `local` or `auto`), e.g. to run the local engine where PDAL exists. */
export const ENGINE_ENV = 'GEOHUB_POINTCLOUD_ENGINE';

let pdalOnPath: Promise<boolean> | undefined;

/**
 * The engine for `wanted` (`pdal`, `local`, or `auto`/undefined: PDAL when `pdal` is on PATH).
 * The split asks the same question as the workers of its deployment, so a file the workers
 * cannot read is refused before any sub-tile is queued.
 */
export async function chooseEngine(wanted: string | undefined): Promise<PointcloudEngine> {
  const choice = wanted ?? 'auto';
  if (choice === 'pdal' || choice === 'local') return choice;
  if (choice !== 'auto') {
    throw new InvalidOperationParamsError(`${ENGINE_ENV}=${choice}: the engine is pdal, local or auto`);
  }
  // PATH does not change under a running process: look once.
  pdalOnPath ??= findExecutable('pdal').then((path) => path !== undefined);
  return (await pdalOnPath) ? 'pdal' : 'local';
}
