import proj4 from 'proj4';
import type { Point } from './bbox.js';
import { fromEastNorth, toEastNorth } from './crs-axes.js';
import type { ResolvedCrs } from './resolve-crs.js';

/** Transforms between a source file's coordinates and another CRS. */
export interface CrsConverter {
  /** File coordinates → the other CRS (easting, northing or longitude, latitude). */
  forward(point: Point): number[];
  /** The other CRS → file coordinates, in the file's axis order. */
  inverse(point: Point): number[];
}

/**
 * proj4 between a resolved CRS and `other` (longitude/latitude by default), honouring the file's
 * axis order and angular unit: proj4 reads `+axis=wsu` but does not apply it unless asked, so a
 * South African Lo zone would land in the other hemisphere, and it reads a geographic CRS's
 * coordinates as degrees, so NTF (Paris)'s grads would land 10 % too far from Paris. Every
 * transform of file coordinates goes through here.
 */
export function crsConverter(crs: ResolvedCrs, other = 'EPSG:4326'): CrsConverter {
  const converter = proj4(crs.definition, other);
  const unit = crs.degreesPerUnit ?? 1;
  return {
    forward: (point) => {
      const [east, north] = toEastNorth(crs.axes, point);
      return converter.forward([east * unit, north * unit]);
    },
    inverse: (point) => {
      const [east, north] = converter.inverse([point[0], point[1]]);
      return [...fromEastNorth(crs.axes, [east! / unit, north! / unit])];
    },
  };
}
