/**
 * proj4 has no grid files in a Lambda, and a definition naming one it has not loaded fails or
 * silently skips the datum shift. Where the EPSG registry's definition names a grid, the same
 * datum's Helmert transformation from the registry is used instead (metres of error, not the
 * 100 m of no shift at all): ample to choose which tiles cover a source. GDAL, for its part,
 * uses the grid when PROJ has it and otherwise the same kind of Helmert fallback.
 */
const HELMERT_FOR_GRID: Readonly<Record<string, string>> = {
  // NAD27 → WGS 84, EPSG transformation 1173 (CONUS mean).
  'NTv2_0.gsb': '-8,160,176,0,0,0,0',
  // OSGB36 → WGS 84, EPSG transformation 1314.
  'OSTN15_NTv2_OSGBtoETRS.gsb': '446.448,-125.157,542.06,0.15,0.247,0.842,-20.489',
  // DHDN → WGS 84, EPSG transformation 1777.
  'BETA2007.gsb': '598.1,73.7,418.2,0.202,0.045,-2.455,6.7',
  // NZGD49 → WGS 84, EPSG transformation 1564.
  'nzgd2kgrid0005.gsb': '59.47,-5.04,187.44,0.47,-0.1,1.024,-4.5993',
  // NAD27(76) → WGS 84 (Ontario), via the NAD27 mean of EPSG transformation 1173.
  'May76v20.gsb': '-8,160,176,0,0,0,0',
  // NAD27(CGQ77) → WGS 84 (Quebec), same mean.
  'CQ77NA83.GSB': '-8,160,176,0,0,0,0',
};

const GRID = /\s\+nadgrids=("[^"]*"|\S+)/;

/**
 * The definition with a grid shift replaced by its Helmert equivalent, or dropped (ellipsoid
 * only) when none is known; `@null` (no shift, as for Web Mercator) is kept.
 */
export function withoutGrids(definition: string): string {
  const match = GRID.exec(definition);
  if (!match || match[1] === '@null') return definition;
  const helmert = HELMERT_FOR_GRID[match[1]!.replace(/^@/, '')];
  return definition.replace(GRID, helmert ? ` +towgs84=${helmert}` : '');
}
