/**
 * Colour ramps for display tiles of one-band data (a DTM, a Float32 raster): each a list of
 * stops, position in [0, 1] of the rescaled range → red, green, blue. The worker's engine
 * interpolates between them (worker/tools/warp-metatile.py): this is the one list of them.
 */
export const COLORMAPS = {
  // matplotlib's viridis at nine stops.
  viridis: [
    [0, 68, 1, 84],
    [0.125, 71, 44, 122],
    [0.25, 59, 81, 139],
    [0.375, 44, 113, 142],
    [0.5, 33, 144, 141],
    [0.625, 39, 173, 129],
    [0.75, 92, 200, 99],
    [0.875, 170, 220, 50],
    [1, 253, 231, 37],
  ],
  // A hypsometric ramp: lowland green through brown to white peaks (as gdaldem's classic one).
  terrain: [
    [0, 26, 150, 65],
    [0.25, 166, 217, 106],
    [0.5, 230, 220, 140],
    [0.75, 166, 120, 70],
    [1, 255, 255, 255],
  ],
  gray: [
    [0, 0, 0, 0],
    [1, 255, 255, 255],
  ],
} as const satisfies Readonly<Record<string, readonly (readonly [number, number, number, number])[]>>;

export type Colormap = keyof typeof COLORMAPS;
export const COLORMAP_NAMES = Object.keys(COLORMAPS) as Colormap[];
