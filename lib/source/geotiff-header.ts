import { GeoTIFF, type GeoTIFFImage } from 'geotiff';
import type { Point } from '../tiling/bbox.js';
import { bboxOfPoints } from '../tiling/bbox.js';
import type { BlockReader } from './block-reader.js';
import { ImplausibleHeaderError, TruncatedSourceError, UnsupportedSourceError } from './errors.js';
import { type CrsGeoKeys, crsFromGeoKeys } from './geokeys-crs.js';
import { geoTiffSourceFor } from './geotiff-source.js';
import { checkRasterSize } from './header-limits.js';
import { tiffDatetime } from './source-datetime.js';
import type { GeoTransform, RasterHeader } from './source-header.js';

const TYPE_NAMES: Readonly<Record<number, Readonly<Record<number, string>>>> = {
  1: { 1: 'Byte', 2: 'Byte', 4: 'Byte', 8: 'Byte', 16: 'UInt16', 32: 'UInt32', 64: 'UInt64' },
  2: { 8: 'Int8', 16: 'Int16', 32: 'Int32', 64: 'Int64' },
  3: { 16: 'Float16', 32: 'Float32', 64: 'Float64' },
  5: { 32: 'CInt16', 64: 'CInt32' },
  6: { 64: 'CFloat32', 128: 'CFloat64' },
};
const PIXEL_IS_POINT = 2;
const STRIP_OFFSETS = 273;
const STRIP_BYTE_COUNTS = 279;
const TILE_OFFSETS = 324;
const TILE_BYTE_COUNTS = 325;

function dataTypeOf(image: GeoTIFFImage): string {
  const format = image.getSampleFormat(0) ?? 1;
  const bits = image.getBitsPerSample(0);
  return TYPE_NAMES[format]?.[bits] ?? `SampleFormat ${format} / ${bits} bits`;
}

/**
 * GDAL's geotransform from the GeoTIFF tags: ModelTransformation, or one tie point plus
 * ModelPixelScale. Like GDAL, a PixelIsPoint raster is moved half a pixel up-left so the
 * transform addresses pixel corners. Undefined when the file is not georeferenced.
 */
function geoTransformOf(
  image: GeoTIFFImage,
  keys: CrsGeoKeys & { GTRasterTypeGeoKey?: number },
  where: string,
) {
  const fd = image.getFileDirectory();
  const matrix = fd.getValue('ModelTransformation') as ArrayLike<number> | undefined;
  const tiepoints = fd.getValue('ModelTiepoint') as ArrayLike<number> | undefined;
  const scale = fd.getValue('ModelPixelScale') as ArrayLike<number> | undefined;
  let gt: [number, number, number, number, number, number];
  if (matrix && matrix.length >= 16) {
    gt = [matrix[3]!, matrix[0]!, matrix[1]!, matrix[7]!, matrix[4]!, matrix[5]!];
  } else if (tiepoints && tiepoints.length >= 6 && scale && scale.length >= 2) {
    const [i, j, , x, y] = Array.from(tiepoints);
    const [sx, sy] = Array.from(scale);
    gt = [x! - i! * sx!, sx!, 0, y! + j! * sy!, 0, -sy!];
  } else if (tiepoints && tiepoints.length > 6) {
    throw new UnsupportedSourceError(
      `${where}: the raster is georeferenced by ${tiepoints.length / 6} ground control points, not an affine ` +
        'transform; warp it first (gdalwarp) so it has a geotransform',
    );
  } else {
    return undefined;
  }
  if (keys.GTRasterTypeGeoKey === PIXEL_IS_POINT) {
    gt[0] -= 0.5 * gt[1] + 0.5 * gt[2];
    gt[3] -= 0.5 * gt[4] + 0.5 * gt[5];
  }
  const determinant = gt[1] * gt[5] - gt[2] * gt[4];
  if (!gt.every(Number.isFinite) || determinant === 0) {
    throw new ImplausibleHeaderError(`${where}: the geotransform ${gt.join(', ')} is not invertible`);
  }
  return gt as GeoTransform;
}

function cornersOf(gt: GeoTransform, width: number, height: number): Point[] {
  const at = (col: number, row: number): Point => [
    gt[0] + col * gt[1] + row * gt[2],
    gt[3] + col * gt[4] + row * gt[5],
  ];
  return [at(0, height), at(width, height), at(width, 0), at(0, 0)];
}

/**
 * A header-only check that the pixel data is all there: the first and last strip or tile of the
 * full-resolution image must end inside the object. An interrupted upload of a GDAL or COG file
 * loses the data at the end, which is where the last block of the full image lives.
 */
async function checkDataPresent(image: GeoTIFFImage, size: number, where: string): Promise<void> {
  const fd = image.getFileDirectory();
  const tiled = fd.hasTag('TileOffsets');
  const offsetsTag = tiled ? TILE_OFFSETS : STRIP_OFFSETS;
  const countsTag = tiled ? TILE_BYTE_COUNTS : STRIP_BYTE_COUNTS;
  if (!fd.hasTag(offsetsTag) || !fd.hasTag(countsTag)) return;
  // The entry count as stored (a deferred array is not loaded to learn it).
  const actual = fd.actualizedFields.get(offsetsTag);
  const stored =
    fd.deferredArrays.get(offsetsTag)?.length ??
    (typeof actual === 'object' ? actual.length : actual === undefined ? 0 : 1);
  if (!stored) return;
  for (const index of new Set([0, stored - 1])) {
    const offset = Number(await fd.loadValueIndexed(offsetsTag, index));
    const count = Number(await fd.loadValueIndexed(countsTag, index));
    if (!Number.isFinite(offset) || !Number.isFinite(count)) continue;
    if (count > 0 && offset + count > size) {
      throw new TruncatedSourceError(
        `${where}: the object is ${size} bytes but its image data runs to byte ${offset + count}; ` +
          'the file is truncated (an interrupted upload or copy?)',
      );
    }
  }
}

/** Reads a GeoTIFF/COG/BigTIFF header through ranged GETs only: no pixel is decoded. */
export async function readGeoTiffHeader(
  reader: BlockReader,
  format: 'tiff' | 'bigtiff',
  where: string,
): Promise<RasterHeader> {
  const tiff = await GeoTIFF.fromSource(geoTiffSourceFor(reader));
  const image = await tiff.getImage(0);
  const width = image.getWidth();
  const height = image.getHeight();
  const bands = image.getSamplesPerPixel();
  // Dimensions first: nothing below should run on a header that claims 10^9 × 10^9 pixels.
  checkRasterSize(where, width, height, bands);
  const keys = (image.getGeoKeys() ?? {}) as CrsGeoKeys & { GTRasterTypeGeoKey?: number };
  const geoTransform = geoTransformOf(image, keys, where);
  await checkDataPresent(image, reader.size, where);
  const corners = geoTransform ? cornersOf(geoTransform, width, height) : undefined;
  const fd = image.getFileDirectory();
  return {
    kind: 'raster',
    format: format === 'bigtiff' ? 'bigtiff' : 'geotiff',
    bytes: reader.size,
    width,
    height,
    bands,
    dataType: dataTypeOf(image),
    nodata: image.getGDALNoData(),
    tiled: image.getFileDirectory().hasTag('TileOffsets'),
    geoTransform,
    corners,
    bbox: corners ? bboxOfPoints(corners) : undefined,
    crs: crsFromGeoKeys(keys),
    datetime: fd.hasTag('DateTime') ? tiffDatetime(await fd.loadValue('DateTime')) : undefined,
  };
}
