/**
 * GeoKeys by their names in the GeoTIFF specification (GTModelTypeGeoKey, ProjCoordTransGeoKey,
 * ProjStdParallel1GeoKey, …): codes and parameters as numbers, citations as text.
 */
export type GeoKeys = Readonly<Record<string, number | string | readonly number[] | undefined>>;

/**
 * What a source file says about its coordinate reference system, before geohub decides whether
 * it can reproject it: an EPSG code (GeoTIFF GeoKeys, LAS GeoKeyDirectory VLR), a WKT string
 * (LAS OGC WKT VLR, an ESRI PE string in a GeoTIFF citation), or user-defined GeoKeys that spell
 * the CRS out parameter by parameter.
 */
export type CrsRef =
  | { readonly kind: 'epsg'; readonly code: number; readonly citation?: string }
  | { readonly kind: 'wkt'; readonly wkt: string }
  /** A PROJ string (`+proj=…`), as a user's source CRS override gives one. */
  | { readonly kind: 'proj'; readonly proj: string }
  | { readonly kind: 'user-defined'; readonly description: string; readonly keys?: GeoKeys };

/** A short human label for messages and logs. */
export function describeCrs(ref: CrsRef): string {
  switch (ref.kind) {
    case 'epsg':
      return ref.citation ? `EPSG:${ref.code} (${ref.citation})` : `EPSG:${ref.code}`;
    case 'wkt': {
      const name = /^\s*[A-Z_0-9]+\[\s*"([^"]*)"/i.exec(ref.wkt)?.[1];
      return name ? `WKT "${name}"` : 'a WKT definition';
    }
    case 'user-defined':
      return `a user-defined CRS (${ref.description})`;
    case 'proj':
      return `PROJ string "${ref.proj}"`;
  }
}
