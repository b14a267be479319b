/**
 * The bench's rasters: the bench raster (shade.tif at 4× its resolution, Web Mercator, Byte) and
 * a second one of another CRS and data type (RGB.byte.tif's first band at 4× its resolution, UTM
 * 18N, Float32), each at two job sizes. `quick` (the CI check of the bench itself): small inputs
 * at low zooms.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface BenchRaster {
  readonly label: string;
  readonly path: string;
  /** The job's zoom (undefined: the native zoom, as a user's run would). */
  readonly zoom?: number;
  /**
   * `tiler`: against gdal2tiles.py only. A job of thousands of sub-tiles would start as many
   * `gdalwarp` processes a round for each transformer (about ten minutes a round here), and the
   * raw tool's ratio is already measured on the same raster at two sizes.
   */
  readonly peers?: 'tiler';
}

export function benchRasters(root: string, dir: string, quick: boolean): BenchRaster[] {
  const shade = join(root, 'examples/raster/shade.tif');
  const rgb = join(root, 'examples/raster/RGB.byte.tif');
  if (quick) {
    return [
      { label: 'shade.tif (EPSG:3857, Byte)', path: shade, zoom: 12 },
      { label: 'RGB.byte.tif (UTM 18N, Byte ×3)', path: rgb, zoom: 8 },
    ];
  }
  const shade4x = join(dir, 'shade4x.tif');
  const float = join(dir, 'rgb-band1-4x-float32.tif');
  const co = ['-co', 'COMPRESS=DEFLATE', '-co', 'TILED=YES'];
  execFileSync('gdal_translate', ['-q', '-outsize', '400%', '400%', '-r', 'cubic', ...co, shade, shade4x]);
  execFileSync('gdal_translate', [
    ...['-q', '-b', '1', '-ot', 'Float32', '-outsize', '400%', '400%', '-r', 'bilinear'],
    ...co,
    rgb,
    float,
  ]);
  // Each at its native zoom (the job a user's run makes), then one zoom deeper: four times the
  // sub-tiles, the size of the jobs issue 17 measured (456 and 700 sub-tiles). A fixed start-up
  // weighs less as a job grows: the two sizes give the size from which it stops mattering. The
  // bench raster also two zooms deeper: the large job (about 4,000 sub-tiles).
  const byte = 'bench raster: shade.tif ×4 (4096², EPSG:3857, Byte)';
  const float32 = 'RGB.byte.tif band 1 ×4 (3164×2872, UTM 18N, Float32)';
  return [
    // The small job a user tries a tool on first (issue 40): 20 tiles.
    { label: 'RGB.byte.tif (791×718, UTM 18N, Byte ×3)', path: rgb, zoom: 9 },
    { label: byte, path: shade4x },
    { label: byte, path: shade4x, zoom: 17 },
    // The large job of issue 40 (about 4,000 tiles), against the tiler.
    { label: byte, path: shade4x, zoom: 18, peers: 'tiler' },
    { label: float32, path: float },
    { label: float32, path: float, zoom: 12 },
  ];
}

export const benchDir = () => mkdtempSync(join(tmpdir(), 'geohub-bench-'));
