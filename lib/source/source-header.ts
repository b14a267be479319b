import type { Bbox, Point } from '../tiling/bbox.js';
import type { CrsRef } from '../tiling/crs-ref.js';

/** GDAL's affine geotransform: x = g0 + col·g1 + row·g2, y = g3 + col·g4 + row·g5. */
export type GeoTransform = readonly [number, number, number, number, number, number];

export interface RasterHeader {
  readonly kind: 'raster';
  readonly format: 'geotiff' | 'bigtiff';
  readonly bytes: number;
  readonly width: number;
  readonly height: number;
  readonly bands: number;
  /** GDAL's name for the sample type: Byte, Int16, UInt16, Int32, UInt32, Float32, Float64, … */
  readonly dataType: string;
  readonly nodata: number | null;
  /** Internally tiled (a COG is), as opposed to stripped. */
  readonly tiled: boolean;
  /** Undefined when the file has no affine georeferencing at all. */
  readonly geoTransform: GeoTransform | undefined;
  /** The four corners of the raster in its CRS (a parallelogram when rotated). */
  readonly corners: readonly Point[] | undefined;
  /** Bounding box of the corners, in the source CRS. */
  readonly bbox: Bbox | undefined;
  readonly crs: CrsRef | undefined;
  /** The source's own date (TIFF DateTime, ISO 8601 UTC), when it records a plausible one. */
  readonly datetime?: string;
}

export interface PointCloudHeader {
  readonly kind: 'pointcloud';
  readonly format: 'las' | 'laz' | 'copc';
  readonly bytes: number;
  /** "1.2", "1.4". */
  readonly version: string;
  readonly pointFormat: number;
  readonly pointCount: number;
  readonly scale: readonly [number, number, number];
  readonly offset: readonly [number, number, number];
  /** Horizontal bounds in the source CRS. */
  readonly bbox: Bbox;
  readonly zRange: readonly [number, number];
  readonly crs: CrsRef | undefined;
  /** The file's creation day (header day of year and year, ISO 8601 UTC), when plausible. */
  readonly datetime?: string;
}

export type SourceHeader = RasterHeader | PointCloudHeader;
