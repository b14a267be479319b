/**
 * What a run's tiles are written as: GeoTIFF (the data, the default), or PNG or WebP for display
 * (8-bit RGBA, nodata transparent, as gdal2tiles.py and tile servers make them).
 */
export const TILE_FORMATS = ['gtiff', 'png', 'webp'] as const;
export type TileFormat = (typeof TILE_FORMATS)[number];

interface FormatSpec {
  /** The tiles' file extension (`z/x/y.<ext>`). */
  readonly ext: string;
  readonly contentType: string;
  /** The GDAL driver that writes them. */
  readonly driver: string;
}

export const TILE_FORMAT_SPECS: Readonly<Record<TileFormat, FormatSpec>> = {
  gtiff: { ext: 'tif', contentType: 'image/tiff', driver: 'GTiff' },
  png: { ext: 'png', contentType: 'image/png', driver: 'PNG' },
  webp: { ext: 'webp', contentType: 'image/webp', driver: 'WEBP' },
};

/** A run's tile format, from its parameters (absent: GeoTIFF, as every run before the option). */
export function tileFormatOf(params: Readonly<Record<string, unknown>>): TileFormat {
  const format = params.format;
  return format === 'png' || format === 'webp' ? format : 'gtiff';
}

/** Display tiles (PNG, WebP): 8-bit RGBA for a browser, not the data. */
export const isDisplayFormat = (format: TileFormat) => format !== 'gtiff';
