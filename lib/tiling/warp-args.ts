import type { Bounds } from './tile-bounds.js';

/** gdalwarp's target grid for a tile or a block of tiles: EPSG:3857 over `bounds`, `width` × `height` pixels. */
export function mercatorGridArgs(bounds: Bounds, width: number, height: number): string[] {
  return [
    '-t_srs',
    'EPSG:3857',
    '-te',
    String(bounds.minX),
    String(bounds.minY),
    String(bounds.maxX),
    String(bounds.maxY),
    '-ts',
    String(width),
    String(height),
  ];
}

/** A quiet gdalwarp argv that writes a DEFLATE GeoTIFF, with `options` (grid, resampling, nodata) between. */
export function gtiffWarpArgv(
  options: readonly string[],
  source: string | readonly string[],
  output: string,
): string[] {
  // gdalwarp takes several sources: each is warped in turn, a later one over an earlier one.
  const sources = typeof source === 'string' ? [source] : source;
  return ['-q', '-of', 'GTiff', ...options, '-co', 'COMPRESS=DEFLATE', ...sources, output];
}
