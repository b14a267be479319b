const WKT1 = /PROJECTION\s*\[\s*"Transverse_Mercator_South_Orientated"\s*\]/i;
const WKT2 =
  /METHOD\s*\[\s*"Transverse Mercator \(South Orientated\)"\s*(,\s*ID\s*\[\s*"EPSG"\s*,\s*9808\s*\])?\s*\]/i;

/**
 * A Transverse Mercator (South Orientated) WKT (the South African Lo zones' method, written by
 * GDAL in WKT1, ESRI WKT and WKT2) as a plain Transverse Mercator WKT, which proj4 reads: the
 * method is Transverse Mercator with x a westing and y a southing (PROJ: `+proj=tmerc
 * +axis=wsu`), so the caller reads the file's axes as `ws`. Undefined for any other WKT.
 */
export function southOrientatedAsTm(wkt: string): string | undefined {
  if (WKT1.test(wkt)) return wkt.replace(WKT1, 'PROJECTION["Transverse_Mercator"]');
  if (WKT2.test(wkt)) return wkt.replace(WKT2, 'METHOD["Transverse Mercator",ID["EPSG",9807]]');
  return undefined;
}
