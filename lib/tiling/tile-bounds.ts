/** Half the width of the Web Mercator world, in metres (EPSG:3857). */
export const MERCATOR_HALF_WORLD = 20037508.342789244;

export interface Bounds {
  readonly minX: number;
  readonly minY: number;
  readonly maxX: number;
  readonly maxY: number;
}

/** Bounds of XYZ tile z/x/y in EPSG:3857 metres (y counted from the north, as XYZ does). */
export function tileBounds(z: number, x: number, y: number): Bounds {
  const size = (2 * MERCATOR_HALF_WORLD) / 2 ** z;
  return {
    minX: -MERCATOR_HALF_WORLD + x * size,
    maxX: -MERCATOR_HALF_WORLD + (x + 1) * size,
    maxY: MERCATOR_HALF_WORLD - y * size,
    minY: MERCATOR_HALF_WORLD - (y + 1) * size,
  };
}
