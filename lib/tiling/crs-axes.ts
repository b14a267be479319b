import type { Point } from './bbox.js';

type EastWest = 'e' | 'w';
type NorthSouth = 'n' | 's';
/**
 * The directions of a file's x and y: `en` for most CRSs, `ws` for the South African Lo zones
 * (westing, southing), `sw` for S-JTSK / Krovak (southing, westing).
 */
export type FileAxes = `${EastWest}${NorthSouth}` | `${NorthSouth}${EastWest}`;

const PAIR = /^([ew][ns]|[ns][ew])/;

/**
 * The axes of a file's coordinates for a CRS whose axis order proj4 parsed as `axis` (`+axis=wsu`,
 * or a WKT's AXIS[] elements), as GDAL reads GeoTIFF and LAS files (traditional GIS order): a
 * CRS whose first axis points north is read east first (latitude/longitude and
 * northing/easting CRSs hold longitude/easting in x); any other order is read as declared, so
 * EPSG:2048's x is a westing and EPSG:5513's x a southing. Axes that are no east/north pair (a
 * polar CRS's "north along 90°E") mean the plain easting/northing that proj4 computes.
 */
export function fileAxes(axis: string | undefined): FileAxes {
  const pair = PAIR.exec((axis ?? '').toLowerCase())?.[1] as FileAxes | undefined;
  if (!pair) return 'en';
  return pair[0] === 'n' ? (`${pair[1]}${pair[0]}` as FileAxes) : pair;
}

/** A point in the file's axes as (easting, northing), the order proj4 computes in. */
export function toEastNorth(axes: FileAxes, [x, y]: Point): Point {
  if (axes === 'en') return [x, y];
  let east = 0;
  let north = 0;
  for (const [direction, value] of [
    [axes[0], x],
    [axes[1], y],
  ] as const) {
    if (direction === 'e') east = value;
    else if (direction === 'w') east = -value;
    else if (direction === 'n') north = value;
    else north = -value;
  }
  return [east, north];
}

/** An (easting, northing) point in the file's axes. */
export function fromEastNorth(axes: FileAxes, [east, north]: Point): Point {
  if (axes === 'en') return [east, north];
  const along = (direction: string) =>
    direction === 'e' ? east : direction === 'w' ? -east : direction === 'n' ? north : -north;
  return [along(axes[0]!), along(axes[1]!)];
}
