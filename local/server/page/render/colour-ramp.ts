/** The run's value range a ramp spans (robust: outliers do not wash the ramp out). */
export interface ValueRange {
  readonly min: number;
  readonly max: number;
}

/**
 * Viridis at five stops: perceptually uniform and legible to colour-blind readers. The page
 * draws the same stops in its legend (assets/output-legend.js).
 */
export const RAMP_STOPS: readonly (readonly [number, number, number])[] = [
  [68, 1, 84],
  [59, 82, 139],
  [33, 145, 140],
  [94, 201, 98],
  [253, 231, 37],
];

/**
 * A `gdaldem color-relief` colour file spanning `range`: values outside clamp to the end colours
 * (gdaldem extends the first and last entries), nodata is transparent (`nv`, with -alpha).
 */
export function colourReliefFile(range: ValueRange): string {
  const span = range.max > range.min ? range.max - range.min : 1;
  const lines = RAMP_STOPS.map(([r, g, b], i) => {
    const value = range.min + (span * i) / (RAMP_STOPS.length - 1);
    return `${value} ${r} ${g} ${b} 255`;
  });
  return `${lines.join('\n')}\nnv 0 0 0 0\n`;
}
