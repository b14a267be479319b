import { execa } from 'execa';
import type { TileRange } from '../../lib/tiling/tile-range.js';

const SCRIPT = new URL('./crs-oracle.py', import.meta.url).pathname;
/** Debian's python3 has GDAL's bindings; a pyenv python3 first on PATH may not. */
const PYTHON = '/usr/bin/python3';

export interface OracleCase {
  readonly id: string;
  readonly srs: string;
  /** Position in the CRS's area of use (0…1 west→east, south→north) and width as a fraction of it. */
  readonly u?: number;
  readonly v?: number;
  readonly fraction?: number;
  /** Or, at u, v: the raster's width in metres (256 pixels: metres / 256 a pixel). */
  readonly metres?: number;
  /** Or: centre longitude, latitude and width in degrees. */
  readonly lonlat?: readonly [number, number, number];
  /** Or: the geotransform itself, with the raster size. */
  readonly gt?: readonly number[];
  readonly size?: readonly [number, number];
}

export type OracleAnswer =
  | { readonly id: string; readonly file: string; readonly zoom: number; readonly ranges: TileRange[] }
  | { readonly id: string; readonly error: string };

/**
 * Makes one raster per case with GDAL and answers, from GDAL/PROJ alone, its native zoom and
 * tile cover (test/support/crs-oracle.py), all in one Python process.
 */
export async function crsOracle(
  dir: string,
  cases: readonly OracleCase[],
  signal?: AbortSignal,
): Promise<Map<string, OracleAnswer>> {
  // Stopped with the test (a timeout): it must not go on writing into a directory being removed.
  const { stdout } = await execa(PYTHON, [SCRIPT], {
    input: JSON.stringify({ dir, cases }),
    cancelSignal: signal,
  });
  const answers = stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as OracleAnswer);
  return new Map(answers.map((a) => [a.id, a]));
}

/** The EPSG registry's projected or 2D geographic CRSs as PROJ's database lists them: [code, method name]. */
export async function epsgCrs(kind: 'projected' | 'geographic'): Promise<[number, string][]> {
  const { stdout } = await execa(PYTHON, [SCRIPT, `--list-${kind}`]);
  return JSON.parse(stdout) as [number, string][];
}
