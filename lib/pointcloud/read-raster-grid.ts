import { fromFile } from 'geotiff';
import { TileGridMismatchError } from '../operations/errors.js';
import type { GeoTransform } from '../source/source-header.js';

/** Where a GeoTIFF's pixels are: its size and GDAL-style geotransform. */
export interface RasterGrid {
  readonly width: number;
  readonly height: number;
  readonly geoTransform: GeoTransform;
}

/**
 * Reads the size and geotransform of a local GeoTIFF from its tags, without GDAL (no process per
 * tile). GDAL writes ModelPixelScale + ModelTiepoint for a north-up grid and ModelTransformation
 * otherwise (a south-up grid has a positive row step). geotiff's own getResolution is not used:
 * it flips the sign of the ModelTransformation case, making a south-up grid look north-up.
 */
export async function readRasterGrid(path: string): Promise<RasterGrid> {
  const tiff = await fromFile(path);
  try {
    const image = await tiff.getImage();
    const directory = image.fileDirectory;
    const size = { width: image.getWidth(), height: image.getHeight() };
    const transform = directory.getValue('ModelTransformation') as ArrayLike<number> | undefined;
    if (transform && transform.length >= 8) {
      const t = Array.from(transform);
      return { ...size, geoTransform: [t[3]!, t[0]!, t[1]!, t[7]!, t[4]!, t[5]!] };
    }
    const scale = directory.getValue('ModelPixelScale') as ArrayLike<number> | undefined;
    const tie = directory.getValue('ModelTiepoint') as ArrayLike<number> | undefined;
    if (!scale || !tie || tie.length < 6)
      throw new TileGridMismatchError(`${path} has no affine georeferencing`);
    const [i, j, , x, y] = Array.from(tie);
    const [sx, sy] = Array.from(scale);
    return { ...size, geoTransform: [x! - i! * sx!, sx!, 0, y! + j! * sy!, 0, -sy!] };
  } finally {
    await tiff.close();
  }
}
