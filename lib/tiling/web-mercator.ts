/**
 * Constants of the XYZ grid in Web Mercator (EPSG:3857). They are the grid's definition (the
 * tiling scheme every web map shares), not a projection: reprojection itself is left to proj4.
 */

/** Semi-major axis of the WGS 84 sphere EPSG:3857 projects onto, in metres. */
export const EARTH_RADIUS = 6_378_137;
/** Half the width of the projected world: the grid spans [-ORIGIN_SHIFT, ORIGIN_SHIFT] on both axes. */
export const ORIGIN_SHIFT = Math.PI * EARTH_RADIUS;
/** Width (and height) of the projected world in metres. */
export const WORLD_SIZE = 2 * ORIGIN_SHIFT;
/** Latitude at which the square Mercator world ends (atan(sinh(π)) in degrees). */
export const MAX_LATITUDE = 85.0511287798066;
/** Pixels along one side of a tile. */
export const TILE_PIXELS = 256;
/** The deepest zoom the tile model accepts (lib/model/tile.ts). */
export const MAX_ZOOM = 24;

/** Width of one tile at zoom z, in metres. */
export function tileSizeAt(z: number): number {
  return WORLD_SIZE / 2 ** z;
}

/** Ground resolution of a 256-pixel tile at zoom z, in metres per pixel (at the equator). */
export function resolutionAt(z: number): number {
  return tileSizeAt(z) / TILE_PIXELS;
}
