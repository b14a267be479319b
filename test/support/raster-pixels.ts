import { fromFile } from 'geotiff';
import { readRasterGrid } from '../../lib/pointcloud/read-raster-grid.js';

/** What a tile comparison needs of a GeoTIFF, read by geotiff.js (not by the GDAL that wrote it). */
export interface TilePixels {
  readonly width: number;
  readonly height: number;
  readonly geoTransform: readonly number[];
  readonly bands: readonly ArrayLike<number>[];
  readonly sampleFormat: number;
  readonly bitsPerSample: number;
  readonly nodata: number | null;
  readonly tileWidth: number | undefined;
  readonly tileHeight: number | undefined;
  readonly compression: number;
  readonly predictor: number;
  readonly extraSamples: readonly number[];
}

export async function readTilePixels(path: string): Promise<TilePixels> {
  const tiff = await fromFile(path);
  try {
    const image = await tiff.getImage();
    const dir = image.fileDirectory;
    const value = (name: string) => dir.getValue(name as Parameters<typeof dir.getValue>[0]) as unknown;
    const rasters = (await image.readRasters({ interleave: false })) as unknown as ArrayLike<number>[];
    const first = (v: unknown, fallback: number) =>
      v === undefined ? fallback : typeof v === 'number' ? v : Number((v as ArrayLike<number>)[0]);
    const tile = image.isTiled ? image.getTileWidth() : undefined;
    return {
      width: image.getWidth(),
      height: image.getHeight(),
      geoTransform: (await readRasterGrid(path)).geoTransform,
      bands: Array.from(rasters),
      sampleFormat: first(value('SampleFormat'), 1),
      bitsPerSample: first(value('BitsPerSample'), 8),
      nodata: image.getGDALNoData(),
      tileWidth: tile,
      tileHeight: image.isTiled ? image.getTileHeight() : undefined,
      compression: first(value('Compression'), 1),
      predictor: first(value('Predictor'), 1),
      extraSamples: Array.from((value('ExtraSamples') as ArrayLike<number> | undefined) ?? []),
    };
  } finally {
    await tiff.close();
  }
}

/** The largest absolute difference between two tiles' pixels, band by band (NaN = NaN). */
export function maxPixelDifference(a: TilePixels, b: TilePixels): number {
  if (a.bands.length !== b.bands.length) return Number.POSITIVE_INFINITY;
  let max = 0;
  for (const [i, band] of a.bands.entries()) {
    const other = b.bands[i]!;
    if (band.length !== other.length) return Number.POSITIVE_INFINITY;
    for (let p = 0; p < band.length; p += 1) {
      const x = band[p]!;
      const y = other[p]!;
      if (Number.isNaN(x) && Number.isNaN(y)) continue;
      const d = Math.abs(x - y);
      if (!(d <= max)) max = d; // NaN against a number counts as infinitely different
      if (Number.isNaN(d)) return Number.POSITIVE_INFINITY;
    }
  }
  return max;
}
