import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import proj4 from 'proj4';
import type { ToolRunner } from '../../lib/operations/operation.js';
import { createPointcloudDtm } from '../../lib/operations/pointcloud-dtm.js';
import { runProcess } from '../../lib/process/run-process.js';
import { lasFacts, tileAt } from './dtm-tile-checks.js';
import { tempDir } from './temp-dir.js';

/** A tool runner on real processes, recording each one it starts (for the process-table checks). */
export function realTools(started: { file: string; pid: number }[], signal?: AbortSignal): ToolRunner {
  return {
    run: (file, args) =>
      runProcess(file, args, {
        signal,
        timeoutMs: 240_000,
        graceMs: 2_000,
        onSpawn: (pid) => started.push({ file, pid }),
      }),
  };
}

/** Every XYZ tile at `zoom` over a LAS/LAZ file's header bounds (its CRS from its WKT VLR). */
export function tilesOver(path: string, zoom: number): { x: number; y: number }[] {
  const facts = lasFacts(new Uint8Array(readFileSync(path)));
  const toLonLat = proj4(facts.wkt, 'EPSG:4326');
  const [west, south] = toLonLat.forward([facts.min[0], facts.min[1]]);
  const [east, north] = toLonLat.forward([facts.max[0], facts.max[1]]);
  const nw = tileAt(west!, north!, zoom);
  const se = tileAt(east!, south!, zoom);
  const all: { x: number; y: number }[] = [];
  for (let x = nw.x; x <= se.x; x += 1) for (let y = nw.y; y <= se.y; y += 1) all.push({ x, y });
  return all;
}

/** Makes one DTM tile of `source` with `engine`; returns the raster's path. */
export async function dtmTile(
  engine: 'pdal' | 'local',
  source: string,
  tile: { z: number; x: number; y: number },
  tools: ToolRunner,
): Promise<string> {
  const scratch = tempDir(`geohub-${engine}-`);
  const output = join(scratch, `${tile.y}.tif.0a1b2c3d.part`);
  await createPointcloudDtm({ engine }).execute(
    { source, tile: { id: '00000000000000aa', ...tile }, params: { zoom: tile.z }, output, scratch },
    tools,
  );
  return output;
}
