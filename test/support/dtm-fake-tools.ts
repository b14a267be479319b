import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OperationContext, ToolRunner } from '../../lib/operations/operation.js';
import { tileBounds } from '../../lib/tiling/tile-bounds.js';
import { tempDir } from './temp-dir.js';
import { baselineTags, tiffBytes } from './tiff-bytes.js';

/** The tile the DTM unit tests make (z17 over Autzen). */
export const TILE = { id: '0123456789abcdef', z: 17, x: 20727, y: 47634 };
export const B = tileBounds(TILE.z, TILE.x, TILE.y);
const RES = (B.maxX - B.minX) / 256;

/** A GeoTIFF header with the given size and georeferencing, enough for the grid check. */
export function gridTiff(path: string, grid: { size?: number; southUp?: boolean } = {}) {
  const size = grid.size ?? 256;
  const georef = grid.southUp
    ? [
        {
          tag: 34264,
          type: 'DOUBLE' as const,
          values: [RES, 0, 0, B.minX, 0, RES, 0, B.minY, 0, 0, 0, 0, 0, 0, 0, 1],
        },
      ]
    : [
        { tag: 33550, type: 'DOUBLE' as const, values: [RES, RES, 0] },
        { tag: 33922, type: 'DOUBLE' as const, values: [0, 0, 0, B.minX, B.maxY, 0] },
      ];
  writeFileSync(path, tiffBytes([...baselineTags(size, size), ...georef]));
}

export interface Call {
  readonly file: string;
  readonly args: readonly string[];
  readonly pipeline?: unknown;
}

/** A ToolRunner that plays the tools: the extractor prints `summary`, the others write `grid`. */
export function fakeTools(
  summary: object | string,
  grid: Parameters<typeof gridTiff>[1] = {},
  /** What `pdal pipeline … --metadata <file>` writes there (PDAL's probe of a waveform LAZ). */
  metadata: object = {},
) {
  const calls: Call[] = [];
  const tools: ToolRunner = {
    async run(file, args) {
      const call: Call = { file, args };
      if (file === process.execPath) {
        calls.push(call);
        const stdout = typeof summary === 'string' ? summary : `${JSON.stringify(summary)}\n`;
        return { stdout, stderr: '', durationMs: 1 };
      }
      if (file === 'pdal') {
        calls.push({ ...call, pipeline: JSON.parse(readFileSync(args[1]!, 'utf8')) });
        const at = args.indexOf('--metadata');
        if (at >= 0) writeFileSync(args[at + 1]!, JSON.stringify(metadata));
        else gridTiff(ctx.output, grid);
      } else {
        calls.push(call);
        // gdal_grid, gdal_create and gdalwarp all take the output last; gdalwarp repairs north-up.
        gridTiff(args.at(-1)!, file === 'gdalwarp' ? {} : grid);
      }
      return { stdout: '', stderr: '', durationMs: 1 };
    },
  };
  const scratch = tempDir('geohub-dtm-');
  const ctx: OperationContext = {
    source: '/cache/run-1/source',
    tile: TILE,
    params: { zoom: 17 },
    output: join(scratch, '47634.tif.ab12cd34.part'),
    scratch,
  };
  return { tools, calls, ctx };
}
