import { execFileSync } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';

const SHADE = new URL('../../examples/raster/shade.tif', import.meta.url).pathname;

/**
 * A raster that makes gdalwarp work for several seconds on one tile: shade.tif upsampled
 * 30× through a VRT (30720² pixels computed on the fly; nothing large on disk). The VRT
 * refers to shade.tif relatively, so both can sit side by side in S3. Written into `dir`
 * (the caller's temporary directory, e.g. tempDir()).
 */
export function slowSource(dir: string): {
  files: string[];
  tile: { z: number; x: number; y: number };
  near: { z: number; x: number; y: number }[];
} {
  copyFileSync(SHADE, join(dir, 'shade.tif'));
  execFileSync('gdal_translate', ['-q', '-of', 'VRT', '-outsize', '3000%', '3000%', 'shade.tif', 'big.vrt'], {
    cwd: dir,
  });
  return {
    files: [join(dir, 'big.vrt'), join(dir, 'shade.tif')],
    // shade.tif is exactly this z12 tile, so warping it reads the whole 30720² raster.
    tile: { z: 12, x: 836, y: 1556 },
    // Neighbours outside the source: quick, empty tiles.
    near: [
      { z: 12, x: 835, y: 1556 },
      { z: 12, x: 837, y: 1556 },
    ],
  };
}
