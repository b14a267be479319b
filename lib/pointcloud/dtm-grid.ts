/** Pixels per tile edge: every geohub tile is 256×256. */
export const TILE_PIXELS = 256;
/** The value of a DTM pixel with no ground within reach (-9999, as the raster default: docs/architecture.md, "Defaults and models"). */
export const NODATA = -9999;
