import { tileBounds } from '../tiling/tile-bounds.js';
import type { Operation, OperationContext } from './operation.js';

export const TILE_SIZE = 256;
const RESAMPLING = new Set(['near', 'bilinear', 'cubic', 'cubicspline', 'lanczos', 'average', 'mode']);

/** The gdalwarp argv of the raster default (DESIGN.md): one XYZ tile, 256×256, EPSG:3857, DEFLATE. */
export function rasterXyzArgs(ctx: OperationContext): string[] {
  const { minX, minY, maxX, maxY } = tileBounds(ctx.tile.z, ctx.tile.x, ctx.tile.y);
  const resampling = String(ctx.params.resampling ?? 'bilinear');
  // Parameters are validated by schema upstream; this guard keeps a bad value from ever
  // reaching argv (no option injection even if a caller skipped validation).
  if (!RESAMPLING.has(resampling)) throw new Error(`unknown resampling ${resampling}`);
  return [
    '-q',
    '-of',
    'GTiff',
    '-t_srs',
    'EPSG:3857',
    '-te',
    String(minX),
    String(minY),
    String(maxX),
    String(maxY),
    '-ts',
    String(TILE_SIZE),
    String(TILE_SIZE),
    '-r',
    resampling,
    // Clamped by GDAL to the type's range for integer sources (0 for Byte), as the seed's command is.
    '-dstnodata',
    '-9999',
    '-co',
    'COMPRESS=DEFLATE',
    ctx.source,
    ctx.output,
  ];
}

export const rasterXyz: Operation = {
  name: 'raster-xyz',
  async execute(ctx, tools) {
    await tools.run('gdalwarp', rasterXyzArgs(ctx));
  },
};
